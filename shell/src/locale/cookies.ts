export function setCookie(name: string, value: string, maxAgeSeconds: number, doc: Document = document): void {
  doc.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${maxAgeSeconds}; Path=/; SameSite=Lax`;
}

export function readCookie(name: string, doc: Document = document): string | undefined {
  for (const part of doc.cookie.split('; ')) {
    const eq = part.indexOf('=');
    if (part.slice(0, eq) === name) return decodeURIComponent(part.slice(eq + 1));
  }
  return undefined;
}
