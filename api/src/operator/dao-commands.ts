// The operator's DAO commands, part of the operator command line:
// `npm run operator -- dao proposal create --title … --choices "For,Against" …` and `… dao proposal list`.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { table, UsageError, type Output, type Transport } from './cli-format';

const usage = `Usage:
  npm run operator -- dao proposal create --title TEXT (--body TEXT | --body-file FILE) --choices "A,B[,…]"
                 [--start ISO] --end ISO [--snapshot ISO] [--quorum USD] [--api URL]
      start defaults to now, snapshot to the start (now when the start is later); the snapshot
      must have passed. The quorum follows the DAO's rule: quorumBps of the pools' value locked at
      the snapshot; a --quorum given is refused unless it is the rule's figure (US dollars).
  npm run operator -- dao proposal list [--api URL]
  npm run operator -- dao proposal close <id> [--api URL]
      ends an open proposal now; the votes cast stand.`;

function date(text: string | undefined, name: string, fallback?: Date): Date {
  if (!text) {
    if (fallback) return fallback;
    throw new UsageError(`--${name} is required`);
  }
  const d = new Date(text);
  if (Number.isNaN(d.getTime())) throw new UsageError(`--${name} is not a date: ${text}`);
  return d;
}

/** Runs one command through `send`; answers the exit code. */
export async function runDao(argv: string[], send: Transport, out: Output, now = new Date()): Promise<number> {
  const [subject, verb, ...rest] = argv;
  if (subject !== 'proposal' || (verb !== 'create' && verb !== 'list' && verb !== 'close')) throw new UsageError(usage);
  const call = async (method: 'GET' | 'POST', body?: unknown, path = '') => {
    const r = await send(method, `/api/v1/operator/dao/proposals${path}`, body);
    if (r.status >= 400) {
      const b = r.body as { message?: string; fields?: Record<string, string> };
      const fields = b.fields ? ` (${Object.entries(b.fields).map(([k, v]) => `${k}: ${v}`).join('; ')})` : '';
      throw new UsageError(`refused (${r.status}): ${b.message ?? 'error'}${fields}`);
    }
    return r.body as Record<string, unknown>;
  };
  if (verb === 'close') {
    const id = rest[0];
    if (!id || !/^[1-9]\d{0,15}$/.test(id)) throw new UsageError(`wrong id '${id ?? ''}': expected a positive whole number`);
    const p = await call('POST', undefined, `/${id}/close`);
    out(`proposal ${p.id} closed at ${p.endsAt}`);
    return 0;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      title: { type: 'string' },
      body: { type: 'string' },
      'body-file': { type: 'string' },
      choices: { type: 'string' },
      start: { type: 'string' },
      end: { type: 'string' },
      snapshot: { type: 'string' },
      quorum: { type: 'string' },
    },
  });
  if (verb === 'list') {
    const r = await call('GET');
    out(table(r.items as Record<string, unknown>[], ['id', 'state', 'startsAt', 'endsAt', 'snapshotAt', 'title']));
    return 0;
  }
  const body = values['body-file'] ? readFileSync(values['body-file'], 'utf8') : values.body;
  if (!values.title || body === undefined || !values.choices) throw new UsageError('--title, --body (or --body-file) and --choices are required');
  const startsAt = date(values.start, 'start', now);
  const p = await call('POST', {
    title: values.title,
    body,
    choices: values.choices.split(',').map((c) => c.trim()),
    startsAt: startsAt.toISOString(),
    endsAt: date(values.end, 'end').toISOString(),
    snapshotAt: date(values.snapshot, 'snapshot', startsAt > now ? now : startsAt).toISOString(),
    ...(values.quorum !== undefined ? { quorumUsd: values.quorum } : {}),
  });
  out(`proposal ${p.id} created: "${p.title}", ${p.startsAt} to ${p.endsAt}, snapshot ${p.snapshotAt}, quorum $${p.quorumUsd} (${p.quorumBps} bps of $${p.quorumTvlUsd} locked at the snapshot)`);
  return 0;
}
