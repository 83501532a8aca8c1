// What the signer agrees to sign. Pure: the request, the ledger's record of it, what was signed
// recently and the limits in; a decision out. A compromised API can ask for anything; only a
// transfer that matches a payout the ledger recorded, to the account's linked wallet (or the
// declared cold and float addresses), within the caps and the rate, is signed; the treasury pays
// only the house's own declared addresses, within its own caps.
import { Interface } from 'ethers';
import { ERC20_ABI, TOKENS } from '@app/web3';

const erc20 = new Interface(ERC20_ABI as unknown as string[]);

/** An unsigned EVM transaction as the API builds it. */
export type UnsignedTx = {
  chainId: number;
  from: string;
  to: string;
  /** Wei, decimal string. */
  value: string;
  data: string;
  nonce: number;
  gasLimit: string;
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
};

/**
 * Sign a payout the ledger recorded (`withdrawalId`); cancel one that is stuck (a zero-value
 * transfer of the float to itself at the payout's own nonce); sweep a deposit address to cold; or
 * fund a house address from the treasury (the interest the books owe there).
 */
export type SignRequest =
  | { kind: 'payout'; withdrawalId: number; tx: UnsignedTx }
  | { kind: 'cancel'; withdrawalId: number; tx: UnsignedTx }
  | { kind: 'sweep'; tx: UnsignedTx }
  | { kind: 'refill'; refillId: number; tx: UnsignedTx }
  | { kind: 'treasury'; tx: UnsignedTx };
export const SIGN_KINDS: readonly SignRequest['kind'][] = ['payout', 'cancel', 'sweep', 'refill', 'treasury'];

/** The ledger's record of a float refill: asked for by one operator, approved by another. */
export type RefillRecord = {
  id: number;
  status: string;
  currency: string;
  amount: string;
  fromAddress: string;
  chainId: number;
  requestedBy: string | null;
  approvedBy: string | null;
};

/** The ledger's record of a payout, read by the signer itself (read-only), never taken from the request. */
export type PayoutRecord = {
  id: number;
  status: string;
  currency: string;
  /** Base units: what the user receives is amount − fee. */
  amount: string;
  fee: string;
  toAddress: string | null;
  chainId: number;
  /** The nonce the payout was signed at, if it was. */
  nonce: number | null;
  /** The wallet linked to the account now. */
  linkedWallet: string | null;
};

/** Per currency, in base units. */
export type Caps = Record<string, { perTransaction: bigint; perDay: bigint }>;

export type Limits = {
  caps: Caps;
  /** At most this many signatures in any minute. */
  perMinute: number;
  /** The declared addresses a transfer may always go to. */
  cold: string;
  float: string;
  /** The deposit (pool) addresses: with the float and cold, the only places the treasury pays. */
  deposits?: string[];
  /** The treasury's own caps per currency: what it may fund in one transfer and in a UTC day. */
  treasuryCaps?: Caps;
};

/** What was signed recently: the rate and the day's totals (payouts, and the treasury's apart). */
export type Recent = { lastMinute: number; todayByCurrency: Record<string, bigint>; treasuryToday?: Record<string, bigint> };

/** `retry`: the refusal passes with time (the rate after a minute, the day's cap the next UTC day). */
export type Retry = 'minute' | 'day';
export type Decision = { ok: true; currency: string; amount: bigint; to: string } | { ok: false; reason: string; retry?: Retry };

/** The transfer a transaction makes: currency, destination, amount (ETH, or a known token's `transfer`). */
export function transferIn(tx: UnsignedTx): { currency: string; to: string; amount: bigint } | null {
  const data = tx.data === '' ? '0x' : tx.data;
  if (data === '0x') return { currency: 'ETH', to: tx.to.toLowerCase(), amount: BigInt(tx.value) };
  if (BigInt(tx.value) !== 0n) return null;
  const tokens = TOKENS[tx.chainId as keyof typeof TOKENS] ?? TOKENS[1];
  const entry = Object.entries(tokens).find(([, t]) => t!.address.toLowerCase() === tx.to.toLowerCase());
  if (!entry) return null;
  try {
    const call = erc20.parseTransaction({ data });
    if (call?.name !== 'transfer') return null;
    return { currency: entry[0], to: String(call.args[0]).toLowerCase(), amount: BigInt(call.args[1]) };
  } catch {
    return null;
  }
}

const SIGNABLE = new Set(['requested', 'waiting_funds', 'sending', 'cancelling']);
const SIGNED = new Set(['sending', 'cancelling']);

/** A cancel moves nothing: only the float's own signed payout's nonce is spent, by a transfer of nothing to itself. */
function decideCancel(req: Extract<SignRequest, { kind: 'cancel' }>, record: PayoutRecord | null, limits: Limits): Decision {
  const float = limits.float.toLowerCase();
  if (!record) return { ok: false, reason: `the ledger has no payout ${req.withdrawalId}` };
  if (!SIGNED.has(record.status)) return { ok: false, reason: `payout ${record.id} is ${record.status}` };
  if (record.nonce !== req.tx.nonce) return { ok: false, reason: `payout ${record.id} was signed at nonce ${record.nonce}, not ${req.tx.nonce}` };
  const empty = (req.tx.data === '' || req.tx.data === '0x') && BigInt(req.tx.value) === 0n;
  if (!empty || req.tx.to.toLowerCase() !== float) return { ok: false, reason: 'a cancel is a transfer of nothing from the float to itself' };
  return { ok: true, currency: 'ETH', amount: 0n, to: float };
}

/**
 * The treasury funds what the books owe at the house's own addresses (a pool's deposit address, the
 * float, cold) and nowhere else, within caps of its own: a compromised API can at most move the
 * house's yield between the house's addresses, a capped amount a day.
 */
function decideTreasury(t: { currency: string; to: string; amount: bigint }, recent: Recent, limits: Limits): Decision {
  const house = new Set([limits.cold, limits.float, ...(limits.deposits ?? [])].map((a) => a.toLowerCase()));
  if (!house.has(t.to)) return { ok: false, reason: `the treasury pays declared house addresses only, not ${t.to}` };
  const cap = limits.treasuryCaps?.[t.currency];
  if (!cap) return { ok: false, reason: `no treasury caps declared for ${t.currency}` };
  if (t.amount > cap.perTransaction) return { ok: false, reason: `${t.amount} ${t.currency} is over the treasury's per-transaction cap of ${cap.perTransaction}` };
  const today = recent.treasuryToday?.[t.currency] ?? 0n;
  if (today + t.amount > cap.perDay) return { ok: false, reason: `${t.currency} funded by the treasury today would pass its daily cap of ${cap.perDay}`, retry: 'day' };
  if (recent.lastMinute >= limits.perMinute) return { ok: false, reason: `more than ${limits.perMinute} signatures a minute`, retry: 'minute' };
  return { ok: true, ...t };
}

export function decide(req: SignRequest, record: PayoutRecord | RefillRecord | null, recent: Recent, limits: Limits): Decision {
  if (req.kind === 'cancel') return decideCancel(req, record as PayoutRecord | null, limits);
  const t = transferIn(req.tx);
  if (!t) return { ok: false, reason: 'not a transfer of a known currency' };
  const cold = limits.cold.toLowerCase();
  const float = limits.float.toLowerCase();
  if (req.kind === 'treasury') return decideTreasury(t, recent, limits);
  if (req.kind === 'sweep') {
    if (t.to !== cold) return { ok: false, reason: `a sweep goes to the cold address only, not ${t.to}` };
  } else if (req.kind === 'refill') {
    const r = record as RefillRecord | null;
    if (!r) return { ok: false, reason: `the ledger has no refill ${req.refillId}` };
    if (r.status !== 'approved') return { ok: false, reason: `refill ${r.id} is ${r.status}` };
    // Four eyes, checked here too: a compromised API cannot approve its own request.
    if (!r.requestedBy || !r.approvedBy || r.requestedBy === r.approvedBy) return { ok: false, reason: `refill ${r.id} is not approved by a second operator` };
    if (r.chainId !== req.tx.chainId || r.currency !== t.currency || BigInt(r.amount) !== t.amount) return { ok: false, reason: `refill ${r.id} moves ${r.amount} ${r.currency}, not ${t.amount} ${t.currency}` };
    if (r.fromAddress.toLowerCase() !== req.tx.from.toLowerCase()) return { ok: false, reason: `refill ${r.id} leaves from ${r.fromAddress}, not ${req.tx.from}` };
    if (t.to !== float) return { ok: false, reason: `a refill goes to the float only, not ${t.to}` };
  } else {
    record = record as PayoutRecord | null;
    if (!record) return { ok: false, reason: `the ledger has no payout ${req.withdrawalId}` };
    if (!SIGNABLE.has(record.status)) return { ok: false, reason: `payout ${record.id} is ${record.status}` };
    if (record.chainId !== req.tx.chainId) return { ok: false, reason: `payout ${record.id} is for chain ${record.chainId}, not ${req.tx.chainId}` };
    if (record.currency !== t.currency) return { ok: false, reason: `payout ${record.id} is in ${record.currency}, not ${t.currency}` };
    const receive = BigInt(record.amount) - BigInt(record.fee);
    if (receive !== t.amount) return { ok: false, reason: `payout ${record.id} pays ${receive}, not ${t.amount}` };
    if ((record.toAddress ?? '').toLowerCase() !== t.to) return { ok: false, reason: `payout ${record.id} goes to ${record.toAddress}, not ${t.to}` };
    const linked = (record.linkedWallet ?? '').toLowerCase();
    if (t.to !== linked && t.to !== cold && t.to !== float) return { ok: false, reason: `${t.to} is not the account's linked wallet nor a declared address` };
  }
  const cap = limits.caps[t.currency];
  if (!cap) return { ok: false, reason: `no caps declared for ${t.currency}` };
  // A sweep only ever reaches cold, the safest place: it is not capped, only rated.
  if (req.kind !== 'sweep' && t.amount > cap.perTransaction) return { ok: false, reason: `${t.amount} ${t.currency} is over the per-transaction cap of ${cap.perTransaction}` };
  const today = recent.todayByCurrency[t.currency] ?? 0n;
  // Sweeps move the house's own money to cold: the day's cap is for what leaves the house.
  if (req.kind === 'payout' && today + t.amount > cap.perDay) return { ok: false, reason: `${t.currency} paid today would pass the daily cap of ${cap.perDay}`, retry: 'day' };
  if (recent.lastMinute >= limits.perMinute) return { ok: false, reason: `more than ${limits.perMinute} signatures a minute`, retry: 'minute' };
  return { ok: true, ...t };
}
