import type { Glyph } from './glyph';

export const glyph: Glyph = [{ d: 'm12 5.5 6.5 6.5-6.5 6.5L5.5 12Z' }];
