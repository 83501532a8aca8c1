// The operator's DAO commands: `npm run dao -- proposal create --title … --choices "For,Against" …`
// and `npm run dao -- proposal list`. They use the API's database (DATABASE_URL, else the PGlite
// folder DATA_DIR, which only one process may open: stop the API first, or use PostgreSQL).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { createProposal, listProposals } from './proposals';

const usage = `Usage:
  npm run dao -- proposal create --title TEXT (--body TEXT | --body-file FILE) --choices "A,B[,…]"
                 [--start ISO] --end ISO [--snapshot ISO] [--quorum USD]
      start defaults to now, snapshot to the start, quorum to 0 (US dollars).
  npm run dao -- proposal list`;

async function main(argv: string[]) {
  const [subject, verb, ...rest] = argv;
  if (subject !== 'proposal' || (verb !== 'create' && verb !== 'list')) {
    console.error(usage);
    return 2;
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
  const config = loadConfig(process.env);
  const database = await openDatabase(config.database);
  try {
    if (verb === 'list') {
      for (const p of await listProposals(database.db)) console.log(`${p.id}\t${p.state}\t${p.endsAt}\t${p.title}`);
      return 0;
    }
    const date = (text: string | undefined, name: string, fallback?: Date) => {
      if (!text) {
        if (fallback) return fallback;
        throw new Error(`--${name} is required`);
      }
      const d = new Date(text);
      if (Number.isNaN(d.getTime())) throw new Error(`--${name} is not a date: ${text}`);
      return d;
    };
    const startsAt = date(values.start, 'start', new Date());
    const body = values['body-file'] ? readFileSync(values['body-file'], 'utf8') : values.body;
    if (!values.title || body === undefined || !values.choices) throw new Error('--title, --body (or --body-file) and --choices are required');
    const p = await createProposal(database.db, {
      title: values.title,
      body,
      choices: values.choices.split(',').map((c) => c.trim()),
      startsAt,
      endsAt: date(values.end, 'end'),
      snapshotAt: date(values.snapshot, 'snapshot', startsAt),
      quorumUsd: values.quorum ?? '0',
    });
    console.log(`proposal ${p.id} created: "${p.title}", ${p.startsAt.toISOString()} to ${p.endsAt.toISOString()}, snapshot ${p.snapshotAt.toISOString()}`);
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    console.error(usage);
    process.exit(1);
  },
);
