import type { Glyph } from './glyph';

export const glyph: Glyph = [{ d: 'm12 5.5 2 2-2 2-2-2Zm-4.5 4.5 2 2-2 2-2-2Zm9 0 2 2-2 2-2-2Zm-4.5 0 2 2-2 2-2-2Zm0 4.5 2 2-2 2-2-2Z' }];
