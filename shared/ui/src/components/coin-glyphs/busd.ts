import type { Glyph } from './glyph';

export const glyph: Glyph = [{ d: 'm12 5 2 2-5 5-2-2Zm3 3 2 2-7 7-2-2Zm3 3 2 2-5 5-2-2Z' }];
