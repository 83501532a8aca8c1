import type { Glyph } from './glyph';

export const glyph: Glyph = [{ d: 'M6.5 6.5h11v2.6h-4.2v2.2c2.4.1 4.2.6 4.2 1.2s-1.8 1.1-4.2 1.2V19h-2.6v-5.3c-2.4-.1-4.2-.6-4.2-1.2s1.8-1.1 4.2-1.2V9.1H6.5Z' }];
