import type { Glyph } from './glyph';

export const glyph: Glyph = [{ d: 'M12 3.5 6.8 12.2 12 15.3l5.2-3.1Z' }, { d: 'M12 16.3 6.8 13.2 12 20.5l5.2-7.3Z', opacity: '0.8' }];
