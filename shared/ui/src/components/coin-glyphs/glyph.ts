/** A coin's glyph: the paths drawn in the coin's ink over its disc (a 24 × 24 view box). */
export type Glyph = readonly { d: string; opacity?: string }[];
