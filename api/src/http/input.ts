/**
 * The dotted path of the first string holding a NUL character, or undefined. PostgreSQL cannot
 * store NUL in text (error 22021), so such input is refused before any handler sees it. Walks
 * without recursion: a body may nest as deep as its size allows.
 */
export function nulPath(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [v, path] = stack.pop() as [unknown, string];
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return path;
    } else if (v && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        if (k.includes('\u0000')) return path ? `${path}.${k.replaceAll('\u0000', '')}` : k.replaceAll('\u0000', '');
        stack.push([child, path ? `${path}.${k}` : k]);
      }
    }
  }
  return undefined;
}

/** Deepest nesting any call's body needs is 2; anything far deeper is refused before parsing. */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether JSON text nests deeper than `max` arrays/objects, in one pass over the text (brackets
 * inside strings do not count). Parsing and validating a 1 MiB body of brackets costs seconds;
 * this costs a scan.
 */
export function nestsDeeper(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

/** Fields of a failed query that may carry secrets (its parameters: hashes, e-mails, codes). */
const SECRET_FIELDS = new Set(['params', 'parameters', 'values', 'query']);

/**
 * An error as it may be logged: message, code, stack and causes, without query parameters. A
 * database error's message ("Failed query: … params: …") is cut before its parameters.
 */
export function loggableError(err: unknown, depth = 0): { type: string; message: string; stack: string; [k: string]: unknown } {
  if (!(err instanceof Error)) {
    // Already made loggable (the handler does it, then the logger's serializer sees it again).
    if (err && typeof err === 'object' && 'type' in err && 'message' in err) return err as ReturnType<typeof loggableError>;
    return { type: typeof err, message: String(err).slice(0, 200), stack: '' };
  }
  const e = err as Error & Record<string, unknown>;
  const out: { type: string; message: string; stack: string; [k: string]: unknown } = {
    type: e.name,
    message: e.message.replace(/\nparams:[\s\S]*$/, '\nparams: [hidden]'),
    stack: '',
  };
  for (const k of ['code', 'constraint', 'table', 'column', 'routine', 'statusCode']) if (e[k] !== undefined) out[k] = e[k];
  for (const k of Object.keys(e)) if (!SECRET_FIELDS.has(k) && !(k in out) && k !== 'cause' && typeof e[k] !== 'object') out[k] = e[k];
  out.stack = (e.stack ?? '').replace(/\nparams:[\s\S]*?\n(\s+at )/, '\nparams: [hidden]\n$1');
  if (e.cause && depth < 5) out.cause = loggableError(e.cause, depth + 1);
  return out;
}
