import type { Glyph } from './glyph';

export const glyph: Glyph = [{ d: 'M8 7h10l-2 2H6Zm-2 4h10l2 2H8Zm2 4h10l-2 2H6Z' }];
