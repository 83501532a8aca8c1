// How addresses are shown (spec §2 header, §9: first 6 and last 6 characters).

export const ADDRESS_HEAD = 6;
export const ADDRESS_TAIL = 6;

/** "0x1234…" style short form: the first 6 and last 6 characters joined by "...". */
export function shortAddress(address: string): string {
  if (address.length <= ADDRESS_HEAD + ADDRESS_TAIL + 3) return address;
  return `${address.slice(0, ADDRESS_HEAD)}...${address.slice(-ADDRESS_TAIL)}`;
}
