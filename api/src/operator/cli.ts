// `npm run operator -- <command>`: the operator's commands, a thin client of the operator API (its
// own port; the contract is shared/contracts/src/api/operator.ts). It acts as one named operator:
// the credential `<name>.<key>` comes from the file OPERATOR_KEY_FILE or the variable OPERATOR_KEY,
// never from an argument (arguments show in the process list). A change also sends the operator's
// current TOTP code: OPERATOR_TOTP, or typed at the prompt. Against the local stack (`npm start`) it
// needs nothing: it acts as the local operator OPERATOR_NAME (alice, or bob) from DATA_DIR/operators.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { apyFractionSchema, auditVerifySchema, isPoolName, operatorBasePath, operatorKeyHeader, operatorTotpHeader, POOL_NAMES, solvencyAttestBodySchema, type SolvencySnapshot } from '@app/contracts';
import { authenticator } from 'otplib';
import { runDao } from './dao-commands';
import { table, UsageError, type Output, type Transport } from './cli-format';

export { table, UsageError, type Output, type Transport };
import { repoRoot } from '../config';


const USAGE = `usage: npm run operator -- <command> [--api URL]   (as OPERATOR_KEY_FILE's or OPERATOR_KEY's operator)
  ledger check [--full]                          prove what the ledger wrote since the last check (--full: all of it)
  overview                                       ledger check, job health, watcher lag, last accrued days, payout queue
  apy set <pool> <apy> [--from YYYY-MM-DD]       e.g. apy set stable 0.05 --from 2026-12-01 (one operator: the local chain
                                                 only; elsewhere an APY or a threshold changes by settings propose)
  apy list [<pool>]
  accrue --until YYYY-MM-DD                       accrue every missed day up to and including that day
  withdrawals list [--status S] [--currency C] [--user ID] [--min BASE_UNITS] [--older-than-hours H]
  withdrawals approve <id> | reject <id> [--reason TEXT]
                                                 above the second threshold two different operators approve
  payouts set <currency> [--fee BASE_UNITS] [--minimum BASE_UNITS|none] [--threshold BASE_UNITS|none]
                 [--dual-threshold BASE_UNITS|none]
                                                 a currency is withdrawn only once it has a minimum
                                                 (enough to be worth the payout's gas); none closes it
  settings propose apy <pool> <apy> --from YYYY-MM-DD
  settings propose payout <currency> [--fee …] [--minimum …|none] [--threshold …|none] [--dual-threshold …|none]
  settings propose limits [--per-hour N] [--per-day N] [--window-hours H]
  settings propose referral --from YYYY-MM-DD [--levels BPS,BPS,…] [--ranks title:capitalUsd:bonusBps,…]
                 [--currency C] [--vesting DAYS]
                                                 propose a money settings change (an APY or a referral version from a
                                                 future day: not begun, not rewarded; a currency's rule or the withdrawal
                                                 limits once approved); a second operator applies it (four eyes)
  settings preview apy|payout|limits|referral …  what that change would change, from what to what and when
  settings list [--status pending|applied|rejected]
  settings approve <id> | reject <id> --reason TEXT
  payouts limits [--per-hour N] [--per-day N] [--window-hours H]
                                                 withdrawal requests per account, and how far back the
                                                 threshold sums an account's (and an address's) withdrawals
                                                 (one operator: the local chain only; elsewhere settings propose limits)
  withdrawals cancel <id>                        release a payout: returned if unsigned, else cancelled at its nonce
  alerts [--all yes]                             what needs the operator (open ones; --all yes: resolved too)
  treasury                                       fund each paying address from the treasury; reserves against liabilities
  custody                                        the float, cold and deposit addresses (the signer's) and the float's refills
  custody sweep                                  sweep each deposit address's booked funds to cold, send approved refills
  custody refill <pool> <currency> <base-units>  ask to refill the float from that pool's deposit address
  custody approve <id>                           approve a refill another operator asked for (four eyes)
  unclaimed list
  unclaimed message <id> <login-or-user-id> <pool>
                                                 the EIP-4361 message the sending wallet signs to claim the transfer
  unclaimed assign <id> <login-or-user-id> <pool> --message-file FILE --signature 0x…
                                                 assign it, with that message signed by the sender
  reconcile                                      on-chain balances against the ledger's reserves
  solvency snapshot                              take a proof-of-solvency snapshot now (docs/proof-of-solvency.md)
  solvency list                                  the snapshots, newest first
  solvency show <id>                             one snapshot: its header, reserves and declared addresses (with the
                                                 message each address awaiting its proof of control signs)
  solvency attest <id> <address> <signature>     the cold address's proof of control: that snapshot's message signed
                                                 (personal_sign) offline by the address's key; its balances at the
                                                 snapshot's block then count in the reserves
  referral show                                  the programme's configuration in force and its history
  (the four commands below set a version with one operator on the local chain only; elsewhere settings propose referral)
  referral levels set <bps> [<bps> …] [--from YYYY-MM-DD]
                                                 rates of level 1, 2, …, e.g. referral levels set 1000 300 200
  referral ranks set <title:capitalUsd:bonusBps> … [--from YYYY-MM-DD]
                                                 e.g. referral ranks set Starter:0:0 Bronze:10000:50 Gold:250000:100
  referral currency set <currency> [--from YYYY-MM-DD]
                                                 the payout currency of new rewards (default USDT)
  referral vesting set <days> [--from YYYY-MM-DD]
                                                 whole days a reward waits, the referee's funds staying, before it can be claimed
  (levels' rates plus the largest rank bonus at every level may add up to 1800 bps, 18 %, at most)
  audit list [--actor operator:NAME] [--action A] [--target T] [--limit N]
  users show <e-mail|wallet|id>                  an account's positions, activity, sessions, holds and audit entries (the lookup is audited)
  audit verify                                   check the audit log's hash chain (exit 1 when broken)
  dao proposal create --title TEXT (--body TEXT | --body-file FILE) --choices "A,B[,…]"
                 [--start ISO] --end ISO [--snapshot ISO] [--quorum USD]   the quorum follows the rule (quorumBps of the value locked at the snapshot)
  dao proposal list
  --json prints the API's answer as one JSON document instead of tables, for scripts`;


const DATE = /^\d{4}-\d{2}-\d{2}$/;
const validDate = (d: string) => DATE.test(d) && !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d);

function parse(argv: string[]) {
  const words: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--json') flags.set('json', 'yes');
    else if (a === '--full') flags.set('full', 'yes');
    else if (a.startsWith('--')) {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`${a} needs a value`);
      flags.set(a.slice(2), value);
      i++;
    } else words.push(a);
  }
  return { words, flags };
}

function need(value: string | undefined, what: string, ok: (v: string) => boolean, hint: string): string {
  if (value === undefined) throw new UsageError(`missing ${what}`);
  if (!ok(value)) throw new UsageError(`wrong ${what} '${value}': ${hint}`);
  return value;
}
const BASE_UNITS = /^(0|[1-9]\d{0,77})$/;
const ID = /^[1-9]\d{0,15}$/;
const id = (v: string | undefined) => need(v, 'id', (x) => ID.test(x), 'expected a positive whole number');
const units = (v: string | undefined, what: string) => need(v, what, (x) => BASE_UNITS.test(x), 'expected a whole number of base units (wei, token units)');
const date = (v: string | undefined, what = 'date') => need(v, what, validDate, 'expected a calendar date YYYY-MM-DD');

const poolExpected = `expected ${POOL_NAMES.slice(0, -1).join(', ')} or ${POOL_NAMES.at(-1)}`;

const claimTarget = (rest: string[]) => ({
  transfer: id(rest[0]),
  account: need(rest[1], 'account', (x) => x.length >= 3 && x.length <= 320, 'expected the account e-mail or user id'),
  pool: need(rest[2], 'pool', isPoolName, poolExpected),
});


type ReferralConfigShown = {
  id: number;
  effectiveFrom: string;
  currency: string;
  vestingDays: number;
  setBy: string;
  levels: { level: number; rewardBps: number }[];
  ranks: { rank: number; title: string; capitalUsd: string; bonusBps: number }[];
};

function showReferral(out: Output, c: ReferralConfigShown, when: string) {
  out(`referral programme ${when} (version ${c.id}, payout currency ${c.currency}, rewards vest after ${c.vestingDays} day(s))`);
  out(table(c.levels));
  out(table(c.ranks));
}

type SnapshotShown = {
  header: { snapshotId: number; takenAt: string; blockNumber: number; blockHash: string; currencies: string[]; decimals: number[]; root: string; sums: string[]; leafCount: number };
  signer: string;
  reserves: { address: string; currency: string; balance: string }[];
};

const snapshotLine = (r: SnapshotShown) => ({
  id: r.header.snapshotId,
  takenAt: r.header.takenAt,
  block: r.header.blockNumber,
  leaves: r.header.leafCount,
  liabilities: r.header.currencies.map((c, i) => `${r.header.sums[i]} ${c}`).join(', '),
  root: r.header.root,
});

/** One snapshot: its header, the figures per currency (proven reserves only), and each declared address. */
function showSnapshot(out: Output, r: SolvencySnapshot) {
  const h = r.header;
  out(`snapshot #${h.snapshotId} taken ${h.takenAt} at block ${h.blockNumber} (${h.blockHash})`);
  out(`root ${h.root}, ${h.leafCount} leaves, signed by ${r.signer}: ${r.signature}`);
  out(table(h.currencies.map((currency, i) => {
    const held = r.reserves.filter((x) => x.currency === currency).reduce((sum, x) => sum + BigInt(x.balance), 0n);
    return { currency, decimals: h.decimals[i], liabilities: h.sums[i], reserves: String(held) };
  })));
  out(table(r.addresses.map((a) => ({ address: a.address, role: a.role, pool: a.pool, signature: a.signature ?? 'awaiting its proof of control (not counted)' }))));
  for (const a of r.addresses.filter((x) => x.signature === null)) {
    out(`\n${a.address} (${a.role}) awaits its proof of control. Its key holder signs this message (personal_sign), then:`);
    out(`npm run operator -- solvency attest ${h.snapshotId} ${a.address} <signature>`);
    out(a.message);
  }
}

/** A currency's rule change from `payouts set`'s flags (also `settings propose payout`). */
function payoutRuleFlags(currencyWord: string | undefined, flags: Map<string, string>): Record<string, unknown> {
  const currency = need(currencyWord, 'currency', (x) => /^[A-Z]{2,10}$/.test(x), 'expected a currency code such as USDT');
  if (!['fee', 'minimum', 'threshold', 'dual-threshold'].some((f) => flags.has(f))) {
    throw new UsageError('give --fee, --minimum, --threshold and/or --dual-threshold (base units; --minimum none closes the currency, --threshold none removes it)');
  }
  const unitsOrNone = (flag: string) => (flags.get(flag) === 'none' ? null : units(flags.get(flag), `--${flag}`));
  const body: Record<string, unknown> = { currency };
  if (flags.has('fee')) body.fee = units(flags.get('fee'), '--fee');
  if (flags.has('minimum')) body.minimum = unitsOrNone('minimum');
  if (flags.has('threshold')) body.approvalThreshold = unitsOrNone('threshold');
  if (flags.has('dual-threshold')) body.dualApprovalThreshold = unitsOrNone('dual-threshold');
  return body;
}

/** The withdrawal limits' change from `payouts limits`' flags (also `settings propose limits`). */
function limitsFlags(flags: Map<string, string>): Record<string, number> {
  const names = { 'per-hour': 'perHour', 'per-day': 'perDay', 'window-hours': 'windowHours' } as const;
  const body: Record<string, number> = {};
  for (const [flag, key] of Object.entries(names)) {
    if (flags.has(flag)) body[key] = Number(need(flags.get(flag), `--${flag}`, (x) => ID.test(x), 'expected a positive whole number'));
  }
  if (!Object.keys(body).length) throw new UsageError('give --per-hour, --per-day and/or --window-hours');
  return body;
}

const RANK = /^([^:]{1,40}):(\d{1,20}(?:\.\d{1,8})?):(\d{1,5})$/;
const rankOf = (v: string) => {
  const m = RANK.exec(v);
  if (!m) throw new UsageError(`wrong rank '${v}': expected title:capitalUsd:bonusBps such as Bronze:10000:50`);
  return { title: m[1]!, capitalUsd: m[2]!, bonusBps: Number(m[3]) };
};
const levelBps = (v: string) => Number(need(v, 'rate', (x) => /^\d{1,5}$/.test(x), 'expected whole basis points such as 1000 for 10 %'));

/** A referral version's change from `settings propose referral`'s flags: lists separated by commas. */
function referralFlags(flags: Map<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = { effectiveFrom: date(flags.get('from'), '--from date') };
  if (flags.has('levels')) body.levels = flags.get('levels')!.split(',').map(levelBps);
  if (flags.has('ranks')) body.ranks = flags.get('ranks')!.split(',').map(rankOf);
  if (flags.has('currency')) body.currency = need(flags.get('currency'), '--currency', (x) => /^[A-Z]{2,10}$/.test(x), 'expected a currency code such as USDT');
  if (flags.has('vesting')) body.vestingDays = Number(need(flags.get('vesting'), '--vesting', (x) => /^\d{1,3}$/.test(x), 'expected whole days such as 30'));
  if (Object.keys(body).length === 1) throw new UsageError('give --levels, --ranks, --currency and/or --vesting');
  return body;
}

/** A proposed change of the money settings from `settings propose|preview apy|payout|limits|referral …`. */
function settingChangeArgs(rest: string[], flags: Map<string, string>): Record<string, unknown> {
  const [kind, ...args] = rest;
  if (kind === 'apy') {
    const pool = need(args[0], 'pool', isPoolName, poolExpected);
    const apy = need(args[1], 'APY', (x) => apyFractionSchema.safeParse(x).success, 'expected a decimal fraction such as 0.05 for 5 %');
    return { kind, pool, apy, effectiveFrom: date(flags.get('from'), '--from date') };
  }
  if (kind === 'payout') return { kind, ...payoutRuleFlags(args[0], flags) };
  if (kind === 'limits') return { kind, ...limitsFlags(flags) };
  if (kind === 'referral') return { kind, ...referralFlags(flags) };
  throw new UsageError(`expected apy, payout, limits or referral after settings propose|preview\n${USAGE}`);
}

type ChangeShown = { id?: number; kind: string; target: string; effectiveFrom: string | null; changes: { field: string; from: string | null; to: string | null }[]; status?: string; proposedBy?: string; decidedBy?: string | null; reason?: string | null; stale?: boolean };
/** A field's value as the command line writes it: ranks as `referral ranks set` takes them. */
const valueText = (field: string, v: string | null) =>
  v === null ? 'none' : field === 'ranks' ? (JSON.parse(v) as { title: string; capitalUsd: string; bonusBps: number }[]).map((r) => `${r.title}:${r.capitalUsd}:${r.bonusBps}`).join(' ') : v;
const changeTarget = (c: ChangeShown) => ({ apy: `APY of ${c.target}`, limits: 'withdrawal limits', referral: 'referral programme' })[c.kind] ?? c.target;
const changeLine = (c: ChangeShown) =>
  `${changeTarget(c)}: ${c.changes.map((x) => `${x.field} ${valueText(x.field, x.from)} → ${valueText(x.field, x.to)}`).join(', ')} ${c.effectiveFrom ? `from ${c.effectiveFrom}` : 'once approved'}`;

/** Runs one command; answers the exit code. With --json it prints the API's answer, not tables. */
export async function runOperator(argv: string[], send: Transport, print: Output): Promise<number> {
  const json = argv.includes('--json');
  // The DAO commands (folded in from their own command line) parse their own flags.
  const run: (send: Transport, out: Output) => Promise<number> =
    argv[0] === 'dao'
      ? (s, o) => runDao(argv.slice(1).filter((a) => a !== '--json'), s, o)
      : (s, o) => {
          const { words, flags } = parse(argv);
          return command(words, flags, s, o);
        };
  let answer: unknown = null;
  const code = await run(async (method, url, body) => {
    const r = await send(method, url, body);
    if (r.status < 400) answer = r.body;
    return r;
  }, json ? () => undefined : print);
  if (json) print(JSON.stringify(answer));
  return code;
}

async function command(words: string[], flags: Map<string, string>, send: Transport, out: Output): Promise<number> {
  const [group, action, ...rest] = words;
  const call = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const r = await send(method, `${operatorBasePath}${url}`, body);
    if (r.status >= 400) {
      const b = r.body as { message?: string; fields?: Record<string, string> };
      const fields = b.fields ? ` (${Object.entries(b.fields).map(([k, v]) => `${k}: ${v}`).join('; ')})` : '';
      throw new UsageError(`refused (${r.status}): ${b.message ?? 'error'}${fields}`);
    }
    return r.body as Record<string, unknown>;
  };
  const cmd = ['accrue', 'reconcile', 'alerts', 'treasury', 'overview', 'custody'].includes(group ?? '') && action === undefined ? group! : `${group ?? ''} ${action ?? ''}`.trim();
  switch (cmd) {
    case 'ledger check': {
      const r = await call('GET', flags.has('full') ? '/ledger/check?full=yes' : '/ledger/check');
      out(`${r.mode} check, transactions read: ${r.transactions}`);
      out(table(r.currencies as Record<string, unknown>[]));
      for (const k of ['unbalanced', 'negative', 'drifted'] as const) {
        const list = r[k] as unknown[];
        if (list.length) out(`${k}:\n${table(list as Record<string, unknown>[])}`);
      }
      out(r.ok ? 'ledger check: OK' : 'ledger check: FAILED');
      return r.ok ? 0 : 1;
    }
    case 'apy set': {
      const [pool, apy] = rest;
      need(pool, 'pool', isPoolName, poolExpected);
      need(apy, 'APY', (x) => /^(0|[1-9]\d{0,5})(\.\d{1,18})?$/.test(x), 'expected a decimal fraction such as 0.05 for 5 %');
      const from = flags.has('from') ? date(flags.get('from'), '--from date') : undefined;
      const r = await call('POST', '/apy', { pool, apy, ...(from ? { effectiveFrom: from } : {}) });
      out(`APY of ${r.pool} is ${r.apy} from ${r.effectiveFrom}`);
      return 0;
    }
    case 'apy list': {
      const r = await call('GET', `/apy${rest[0] ? `?pool=${encodeURIComponent(rest[0])}` : ''}`);
      out(table(r.items as Record<string, unknown>[]));
      return 0;
    }
    case 'accrue': {
      // `accrue --until DATE`: the action word is absent.
      const until = date(flags.get('until'), '--until date');
      const r = await call('POST', '/accrue', { until });
      if (r.skipped) out(String(r.skipped));
      out(table(r.pools as Record<string, unknown>[]));
      out(`accrued up to ${until}`);
      return 0;
    }
    case 'withdrawals list': {
      const names = { status: 'status', currency: 'currency', user: 'user', min: 'minAmount', 'older-than-hours': 'olderThanHours' } as const;
      const query = new URLSearchParams();
      for (const [flag, key] of Object.entries(names)) if (flags.has(flag)) query.set(key, flags.get(flag)!);
      const r = await call('GET', `/withdrawals${query.size ? `?${query}` : ''}`);
      out(table(r.items as Record<string, unknown>[], ['id', 'kind', 'status', 'pool', 'currency', 'amount', 'fee', 'approvals', 'approvalsNeeded', 'to', 'transaction', 'reason', 'signerRefusal']));
      return 0;
    }
    case 'custody': {
      const r = await call('GET', '/custody');
      const a = r.addresses as { float: string; cold: string; deposits: string[] } | null;
      out(a ? `float ${a.float}\ncold ${a.cold}\ndeposit addresses ${a.deposits.join(', ')}` : 'no signer configured (SIGNER_URL)');
      out(table(r.items as Record<string, unknown>[], ['id', 'status', 'pool', 'currency', 'amount', 'fromAddress', 'createdAt']));
      return 0;
    }
    case 'custody sweep': {
      const r = await call('POST', '/custody/sweep');
      out(`custody: ${r.opened ?? 0} transfer(s) opened, ${r.signed ?? 0} signed, ${r.refused ?? 0} refused, ${r.settled ?? 0} settled`);
      return Number(r.refused ?? 0) ? 1 : 0;
    }
    case 'custody refill': {
      const [pool, currency, amount] = rest;
      if (!pool || !currency || !amount) throw new UsageError('custody refill <pool> <currency> <base-units>');
      const r = await call('POST', '/custody/refills', { pool, currency, amount });
      out(`refill ${r.id}: ${r.amount} ${r.currency} from ${r.fromAddress}, awaiting a second operator's approval`);
      return 0;
    }
    case 'custody approve': {
      const r = await call('POST', `/custody/refills/${id(rest[0])}/approve`);
      out(`refill ${r.id}: ${r.status}`);
      return 0;
    }
    case 'withdrawals approve': {
      const r = await call('POST', `/withdrawals/${id(rest[0])}/approve`);
      out(`withdrawal ${r.id}: ${r.status} (${r.approvals} of ${r.needed} approval(s))`);
      return 0;
    }
    case 'audit list': {
      const query = new URLSearchParams();
      for (const f of ['actor', 'action', 'target', 'limit']) if (flags.has(f)) query.set(f, flags.get(f)!);
      const r = await call('GET', `/audit${query.size ? `?${query}` : ''}`);
      out(table(r.items as Record<string, unknown>[], ['seq', 'at', 'actor', 'action', 'target']));
      return 0;
    }
    case 'overview': {
      const r = await call('GET', '/overview');
      const w = r.watcher as Record<string, unknown>;
      const q = r.payoutQueue as Record<string, unknown>;
      out(`ledger check: ${(r.ledger as { ok: boolean }).ok ? 'OK' : 'FAILED'}; open alerts: ${r.openAlerts}`);
      out(`watcher: block ${w.watched ?? '?'} of ${w.head ?? '?'} (${w.lagBlocks ?? '?'} behind); payout queue: ${q.count}, oldest ${q.oldestAgeSeconds ?? '-'} s`);
      out(table(r.jobs as Record<string, unknown>[]));
      out(table(r.accrual as Record<string, unknown>[]));
      return (r.ledger as { ok: boolean }).ok ? 0 : 1;
    }
    case 'users show': {
      const q = need(rest[0], 'account', (x) => x.length >= 3 && x.length <= 320, 'expected an e-mail, a wallet address or a user id');
      const r = await call('GET', `/users?q=${encodeURIComponent(q)}`);
      const a = r.account as Record<string, unknown>;
      out(`account ${a.id}: ${a.email ?? '(no e-mail)'} ${a.wallet ?? '(no wallet)'} role ${a.role ?? '(unconfirmed)'}; withdrawals held until ${(r.holds as Record<string, unknown>).withdrawalsHeldUntil ?? 'no hold'}`);
      out(table(r.positions as Record<string, unknown>[]));
      out(table(r.withdrawals as Record<string, unknown>[], ['id', 'pool', 'currency', 'amount', 'status', 'createdAt']));
      out(table(r.audit as Record<string, unknown>[]));
      return 0;
    }
    case 'audit verify': {
      const r = auditVerifySchema.parse(await call('GET', '/audit/verify'));
      out(r.ok ? `audit log: OK (${r.rows} entries, chain intact)` : `audit log: BROKEN at entry ${r.brokenAt}: ${r.problem}`);
      return r.ok ? 0 : 1;
    }
    case 'withdrawals reject': {
      const reason = flags.get('reason');
      const r = await call('POST', `/withdrawals/${id(rest[0])}/reject`, reason ? { reason } : {});
      out(`withdrawal ${r.id}: ${r.status}`);
      return 0;
    }
    case 'withdrawals cancel': {
      const r = await call('POST', `/withdrawals/${id(rest[0])}/cancel`);
      out(`withdrawal ${r.id}: ${r.status}${r.status === 'cancelling' ? ' (returned once the cancel at its nonce is final)' : ''}`);
      return 0;
    }
    case 'alerts': {
      const all = flags.has('all') ? need(flags.get('all'), '--all', (x) => x === 'yes' || x === 'no', 'expected yes or no') === 'yes' : false;
      const r = await call('GET', `/alerts${all ? '?all=true' : ''}`);
      const items = r.items as Record<string, unknown>[];
      out(table(items, ['kind', 'key', 'count', 'lastAt', 'resolvedAt', 'message']));
      return items.some((i) => i.resolvedAt === null) ? 1 : 0;
    }
    case 'treasury': {
      const r = await call('POST', '/treasury');
      out(`treasury ${r.treasury ?? '(not configured: TREASURY_KEY)'}: ${r.funded} transfer(s) sent`);
      out(table(r.items as Record<string, unknown>[], ['pool', 'currency', 'address', 'liabilities', 'onChain', 'incoming', 'shortfall']));
      out(Number(r.short) ? `${r.short} pool(s) hold less than they owe and the treasury cannot cover it` : 'every paying address holds what it owes, or its funding is on the way');
      return Number(r.short) ? 1 : 0;
    }
    case 'payouts set': {
      const r = await call('POST', '/payouts', payoutRuleFlags(rest[0], flags));
      out(`${r.currency}: fee ${r.fee}, minimum ${r.minimum ?? 'none (closed)'}, approval above ${r.approvalThreshold ?? 'never'} in a window, two operators above ${r.dualApprovalThreshold ?? 'never'}`);
      return 0;
    }
    case 'settings preview': {
      out(changeLine((await call('POST', '/setting-changes/preview', settingChangeArgs(rest, flags))) as unknown as ChangeShown));
      return 0;
    }
    case 'settings propose': {
      const r = (await call('POST', '/setting-changes', settingChangeArgs(rest, flags))) as unknown as ChangeShown;
      out(`change ${r.id} proposed, awaiting a second operator's approval: ${changeLine(r)}`);
      return 0;
    }
    case 'settings list': {
      const status = flags.get('status');
      const r = await call('GET', `/setting-changes${status ? `?status=${encodeURIComponent(status)}` : ''}`);
      const items = r.items as ChangeShown[];
      out(table(items.map((c) => ({ id: c.id, status: c.stale ? `${c.status} (stale)` : c.status, change: changeLine(c), proposedBy: c.proposedBy, decidedBy: c.decidedBy, reason: c.reason }))));
      return 0;
    }
    case 'settings approve': {
      const r = (await call('POST', `/setting-changes/${id(rest[0])}/approve`)) as unknown as ChangeShown;
      out(`change ${r.id} applied: ${changeLine(r)}`);
      return 0;
    }
    case 'settings reject': {
      const reason = need(flags.get('reason'), '--reason', (x) => x.trim().length > 0 && x.length <= 500, 'expected a reason of up to 500 characters');
      const r = (await call('POST', `/setting-changes/${id(rest[0])}/reject`, { reason })) as unknown as ChangeShown;
      out(`change ${r.id} rejected: ${r.reason}`);
      return 0;
    }
    case 'payouts limits': {
      const r = await call('POST', '/payouts/limits', limitsFlags(flags));
      out(`withdrawal requests per account: ${r.perHour} an hour, ${r.perDay} a day; approval sums over ${r.windowHours} h`);
      return 0;
    }
    case 'unclaimed list': {
      const r = await call('GET', '/unclaimed');
      out(table(r.items as Record<string, unknown>[], ['id', 'currency', 'amount', 'from', 'to', 'pool', 'transaction', 'blockNumber']));
      return 0;
    }
    case 'unclaimed message': {
      const { transfer, account, pool } = claimTarget(rest);
      const r = await call('GET', `/unclaimed/${transfer}/claim-message?account=${encodeURIComponent(account)}&pool=${pool}`);
      out(`The owner of ${String(r.signer)} signs this message (personal_sign, e.g. in their wallet), then:`);
      out(`npm run operator -- unclaimed assign ${transfer} ${account} ${pool} --message-file <this message> --signature <their signature>`);
      out('');
      out(String(r.message));
      return 0;
    }
    case 'unclaimed assign': {
      const { transfer, account, pool } = claimTarget(rest);
      const file = flags.get('message-file');
      if (!file) throw new UsageError('give --message-file: the message of `unclaimed message`, signed by the sending wallet (no assignment without it)');
      let message: string;
      try {
        message = readFileSync(file, 'utf8').replace(/\r\n/g, '\n').replace(/\n+$/, '');
      } catch (err) {
        throw new UsageError(`cannot read --message-file ${file}: ${(err as Error).message}`);
      }
      const signature = need(flags.get('signature'), '--signature', (x) => /^0x[0-9a-fA-F]{130}$/.test(x), 'expected the 65-byte signature in hex (0x…)');
      const r = await call('POST', `/unclaimed/${transfer}/assign`, { account, pool, message, signature });
      out(`transfer ${r.id} is deposit ${r.deposit} of ${r.userId} in ${r.pool}; credited after its confirmations`);
      return 0;
    }
    case 'referral show': {
      const r = await call('GET', '/referral');
      showReferral(out, r.current as ReferralConfigShown, 'in force today');
      const history = r.history as ReferralConfigShown[];
      out(table(history.map((h) => ({ id: h.id, from: h.effectiveFrom, currency: h.currency, vesting: h.vestingDays, levels: h.levels.map((l) => l.rewardBps).join(' '), ranks: h.ranks.map((k) => `${k.title}:${k.capitalUsd}:${k.bonusBps}`).join(' '), by: h.setBy }))));
      return 0;
    }
    case 'referral levels':
    case 'referral ranks':
    case 'referral currency':
    case 'referral vesting': {
      if (rest[0] !== 'set' || rest.length < 2) throw new UsageError(`usage: npm run operator -- ${cmd} set …\n${USAGE}`);
      const values = rest.slice(1);
      const body: Record<string, unknown> = {};
      if (action === 'levels') body.levels = values.map(levelBps);
      if (action === 'ranks') body.ranks = values.map(rankOf);
      if (action === 'currency') body.currency = need(values[0], 'currency', (x) => /^[A-Z]{2,10}$/.test(x), 'expected a currency code such as USDT');
      if (action === 'vesting') body.vestingDays = Number(need(values[0], 'days', (x) => /^\d{1,3}$/.test(x), 'expected whole days such as 30'));
      if (flags.has('from')) body.effectiveFrom = date(flags.get('from'), '--from date');
      const r = await call('POST', '/referral', body);
      showReferral(out, r as unknown as ReferralConfigShown, `from ${String(r.effectiveFrom)}`);
      return 0;
    }
    case 'reconcile': {
      const r = await call('GET', '/reconcile');
      const items = r.items as { onChain: string | null; difference: string | null; covered: boolean | null }[];
      out(table(items as Record<string, unknown>[], ['pool', 'currency', 'address', 'onChain', 'books', 'difference', 'liabilities']));
      const off = items.filter((i) => i.difference !== '0');
      out(off.length ? `${off.length} difference(s) reported; nothing was changed` : 'reserves match the books');
      const short = items.filter((i) => i.covered === false);
      out(short.length ? `${short.length} pool address(es) hold less than the books owe (npm run operator -- treasury)` : 'reserves cover the liabilities');
      return 0;
    }
    case 'solvency snapshot': {
      const r = await call('POST', '/solvency/snapshot');
      out(`snapshot #${r.id} at block ${r.blockNumber}: ${r.users} user(s), ${r.leafCount} leaves, root ${r.root} (${r.seconds} s)`);
      out(table((r.currencies as string[]).map((currency, i) => ({ currency, liabilities: (r.sums as string[])[i] }))));
      return 0;
    }
    case 'solvency list': {
      const r = await call('GET', '/solvency');
      out(table((r.items as SnapshotShown[]).map(snapshotLine)));
      return 0;
    }
    case 'solvency show': {
      showSnapshot(out, (await call('GET', `/solvency/${id(rest[0])}`)) as unknown as SolvencySnapshot);
      return 0;
    }
    case 'solvency attest': {
      const [snapshot, address, signature] = rest;
      if (!snapshot || !address || !signature) throw new UsageError('solvency attest <snapshot id> <address> <signature>');
      // The operator contract's own check, before anything is sent.
      const body = solvencyAttestBodySchema.safeParse({ address, signature });
      if (!body.success) throw new UsageError(`wrong argument: ${body.error.issues.map((i) => i.message).join('; ')}`);
      const r = (await call('POST', `/solvency/${id(snapshot)}/attest`, body.data)) as unknown as SolvencySnapshot;
      out(`${address} has proven control in snapshot #${r.header.snapshotId}: its balances at block ${r.header.blockNumber} now count in the reserves`);
      showSnapshot(out, r);
      return 0;
    }
    default:
      if (group === undefined || group === 'help') {
        out(USAGE);
        return group === 'help' ? 0 : 2;
      }
      throw new UsageError(`unknown command '${[group, action, ...rest].filter(Boolean).join(' ')}'\n${USAGE}`);
  }
}

/** The credential and TOTP source of the operator the command line acts as. */
type Credential = { key: string; totp: () => Promise<string> };

/** The local stack's operator (OPERATOR_NAME, default alice): the API wrote its credentials beside its data. */
function localOperator(): Credential | undefined {
  const dir = path.resolve(process.env.DATA_DIR ?? path.join(repoRoot, '.data/api'));
  const file = path.join(dir, 'operators', `${process.env.OPERATOR_NAME ?? 'alice'}.json`);
  if (!existsSync(file)) return undefined;
  const o = JSON.parse(readFileSync(file, 'utf8')) as { name: string; key: string; totpSecret: string };
  return { key: `${o.name}.${o.key}`, totp: async () => authenticator.generate(o.totpSecret) };
}

/** The current code: OPERATOR_TOTP, or asked for on a terminal. */
async function typedTotp(): Promise<string> {
  if (process.env.OPERATOR_TOTP) return process.env.OPERATOR_TOTP;
  if (!process.stdin.isTTY) throw new UsageError('this change needs your current authenticator code: set OPERATOR_TOTP or run it in a terminal');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question('authenticator code: ')).trim();
  } finally {
    rl.close();
  }
}

function credential(): Credential | undefined {
  const file = process.env.OPERATOR_KEY_FILE;
  if (file) {
    try {
      return { key: readFileSync(file, 'utf8').trim(), totp: typedTotp };
    } catch (err) {
      throw new UsageError(`cannot read OPERATOR_KEY_FILE ${file}: ${(err as Error).message}`);
    }
  }
  if (process.env.OPERATOR_KEY) return { key: process.env.OPERATOR_KEY, totp: typedTotp };
  return localOperator();
}

/**
 * The operator API the command line speaks to and as whom: --api URL, else OPERATOR_API_URL, else
 * the local stack's operator port; the operator from OPERATOR_KEY_FILE, OPERATOR_KEY or the local
 * stack. Answers the transport and the arguments without --api; exits when no operator is found.
 */
export function operatorConnection(argv: string[]): { send: Transport; rest: string[] } {
  if (argv.includes('--key')) {
    console.error('--key is gone: an argument shows in the process list. Put `<name>.<key>` in a file named by OPERATOR_KEY_FILE, or in OPERATOR_KEY');
    process.exit(2);
  }
  const api = (flagOf(argv, '--api') ?? process.env.OPERATOR_API_URL ?? `http://127.0.0.1:${process.env.OPERATOR_PORT ?? 4100}`).replace(/\/$/, '');
  const rest = stripFlags(argv, ['--api']);
  const who = credential();
  if (!who) {
    console.error('no operator: set OPERATOR_KEY_FILE (a file holding <name>.<key>) or OPERATOR_KEY; the local stack writes DATA_DIR/operators/<name>.json when the API starts');
    process.exit(2);
  }
  const send: Transport = async (method, url, body) => {
    const headers: Record<string, string> = { [operatorKeyHeader]: who.key };
    if (method !== 'GET') headers[operatorTotpHeader] = await who.totp();
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`${api}${url}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    } catch (err) {
      throw new UsageError(`cannot reach the operator API at ${api}: ${(err as Error).message}`);
    }
    return { status: res.status, body: await res.json().catch(() => ({})) };
  };
  return { send, rest };
}

async function main() {
  const { send, rest } = operatorConnection(process.argv.slice(2));
  try {
    process.exitCode = await runOperator(rest, send, (l) => console.log(l));
  } catch (err) {
    // A refusal, or an argument the DAO commands' parseArgs does not know.
    if (err instanceof UsageError || (err instanceof TypeError && 'code' in err)) {
      console.error(err.message);
      process.exitCode = 2;
    } else throw err;
  }
}

function flagOf(argv: string[], name: string) {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}
function stripFlags(argv: string[], names: string[]) {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (names.includes(argv[i]!)) i++;
    else out.push(argv[i]!);
  }
  return out;
}

if (require.main === module) void main();
