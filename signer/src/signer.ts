// The signer: keys in, signatures out, only within policy. Every decision (signed or refused) is
// written to its own audit log; a refusal is also handed to `alert`. The day's totals and the rate
// are rebuilt from that log at start, so a restart does not reset the caps.
import { Transaction, Wallet } from 'ethers';
import { openLog } from './audit-log';
import { parseHeader } from './header';
import { decide, type Limits, type PayoutRecord, type RefillRecord, type Retry, type SignRequest } from './policy';

/** The ledger's record of a payout, read by the signer with read-only access. */
export type Records = (withdrawalId: number) => Promise<PayoutRecord | null>;
/** The ledger's record of a float refill, likewise. */
export type RefillRecords = (refillId: number) => Promise<RefillRecord | null>;

export class Refused extends Error {
  constructor(
    readonly reason: string,
    /** Set when the refusal passes with time: the rate, the day's cap. */
    readonly retry?: Retry,
  ) {
    super(reason);
  }
}

export type SignerOptions = {
  /** Private keys: the float's and the deposit addresses'. */
  keys: string[];
  /** The treasury (yield) address's key: it funds the house's addresses ('treasury' requests) only. */
  treasuryKey?: string | null;
  /** The key that signs proof-of-solvency headers ('solvency'), and nothing else; its address is published. */
  solvencyKey?: string | null;
  limits: Limits;
  records: Records;
  /** Without it no refill is signed. */
  refills?: RefillRecords;
  logFile: string;
  alert?: (reason: string, request: SignRequest | { kind: 'message'; address: string } | { kind: 'solvency' }) => void;
  now?: () => Date;
};

const day = (d: Date) => d.toISOString().slice(0, 10);
/** What a request names in the log: the payout or the refill. */
const ids = (req: SignRequest) => (req.kind === 'sweep' || req.kind === 'treasury' ? {} : req.kind === 'refill' ? { refillId: req.refillId } : { withdrawalId: req.withdrawalId });
/** The proof-of-solvency control message (api/src/solvency/snapshot.ts controlMessage). */
const CONTROL_MESSAGE = /^[^\n]{1,200} solvency: (0x[0-9a-fA-F]{40}) belongs to the operator at snapshot \d{1,18}$/;

export function createSigner(o: SignerOptions) {
  const now = o.now ?? (() => new Date());
  const wallets = new Map(o.keys.map((k) => [new Wallet(k).address.toLowerCase(), new Wallet(k)]));
  // Kept apart from the float's and the deposits': a treasury key never pays a payout nor sweeps,
  // and the solvency key signs no transaction at all.
  const treasury = o.treasuryKey ? new Wallet(o.treasuryKey) : null;
  const solvency = o.solvencyKey ? new Wallet(o.solvencyKey) : null;
  const spending = [...wallets.keys(), ...(treasury ? [treasury.address.toLowerCase()] : [])];
  if (solvency && spending.includes(solvency.address.toLowerCase())) throw new Error('the solvency key must be no key that moves money');
  const log = openLog(o.logFile, now);
  const signedAt: number[] = [];
  const today: { day: string; byCurrency: Record<string, bigint>; treasury: Record<string, bigint> } = { day: day(now()), byCurrency: {}, treasury: {} };
  const add = (totals: Record<string, bigint>, currency: string, amount: bigint) => (totals[currency] = (totals[currency] ?? 0n) + amount);
  for (const e of log.entries) {
    if (e.event === 'signed' && e.at.startsWith(today.day)) {
      if (e.detail.kind === 'payout') add(today.byCurrency, String(e.detail.currency), BigInt(String(e.detail.amount)));
      if (e.detail.kind === 'treasury') add(today.treasury, String(e.detail.currency), BigInt(String(e.detail.amount)));
    }
    if (e.event === 'signed' && e.detail.kind !== 'solvency' && e.detail.kind !== 'message') signedAt.push(Date.parse(e.at));
  }

  const refuse = (reason: string, req: SignRequest, retry?: Retry): never => {
    log.append('refused', { kind: req.kind, ...ids(req), from: req.tx.from, to: req.tx.to, reason });
    o.alert?.(reason, req);
    throw new Refused(reason, retry);
  };

  const float = o.limits.float.toLowerCase();
  const deposits = [...wallets.keys()].filter((a) => a !== float);
  const limits = { ...o.limits, deposits };
  return {
    /** The addresses whose keys it holds. */
    addresses: [...wallets.keys()],
    /**
     * The float (pays), the cold address (sweeps go there), the deposit addresses (swept), the
     * treasury (funds them) and the solvency signer (its address is published); null when not held.
     */
    declared: {
      float,
      cold: o.limits.cold.toLowerCase(),
      deposits,
      treasury: treasury?.address.toLowerCase() ?? null,
      solvency: solvency?.address.toLowerCase() ?? null,
    },
    /**
     * Signs a proof-of-solvency header with the solvency key (EIP-191), and nothing else: the text
     * must be a well-formed pol-v1 header, byte for byte canonical (`header.ts`).
     */
    async signHeader(message: string): Promise<{ signature: string; address: string }> {
      const parsed = parseHeader(message);
      const reason = !solvency ? 'no solvency key is held' : !parsed.ok ? parsed.reason : null;
      if (reason) {
        log.append('refused', { kind: 'solvency', reason });
        o.alert?.(reason, { kind: 'solvency' });
        throw new Refused(reason);
      }
      const h = parsed.ok ? parsed.header : null;
      log.append('signed', { kind: 'solvency', snapshotId: h!.snapshotId, blockNumber: h!.blockNumber, root: h!.root });
      return { signature: await solvency!.signMessage(message), address: solvency!.address };
    },
    /**
     * Signs the proof-of-solvency control message of an address it holds (EIP-191), and nothing
     * else: the message names that address and a snapshot, so it can never authorise a transfer.
     */
    async signMessage(address: string, message: string): Promise<{ signature: string }> {
      const m = CONTROL_MESSAGE.exec(message);
      const wallet = wallets.get(address.toLowerCase()) ?? (treasury?.address.toLowerCase() === address.toLowerCase() ? treasury : undefined);
      const reason = !wallet ? `no key for ${address}` : !m || m[1]!.toLowerCase() !== address.toLowerCase() ? 'only a control message naming the address is signed' : null;
      if (reason) {
        log.append('refused', { kind: 'message', address, reason });
        o.alert?.(reason, { kind: 'message', address });
        throw new Refused(reason);
      }
      log.append('signed', { kind: 'message', address, message });
      return { signature: await wallet!.signMessage(message) };
    },
    async sign(req: SignRequest): Promise<{ signedTx: string; hash: string }> {
      // The treasury's key signs treasury transfers only; the float's and the deposits' never one.
      const wallet = req.kind === 'treasury' ? (treasury?.address.toLowerCase() === req.tx.from.toLowerCase() ? treasury : undefined) : wallets.get(req.tx.from.toLowerCase());
      if (!wallet) return refuse(req.kind === 'treasury' ? `a treasury transfer leaves from the treasury only, not ${req.tx.from}` : `no key for ${req.tx.from}`, req);
      // Payouts (and their cancels) leave from the float only; a sweep leaves from a deposit address, never the float.
      const fromFloat = req.tx.from.toLowerCase() === o.limits.float.toLowerCase();
      if ((req.kind === 'payout' || req.kind === 'cancel') && !fromFloat) return refuse('payouts are paid from the float only', req);
      if (req.kind === 'sweep' && fromFloat) return refuse('the float is not swept', req);
      if (req.kind === 'refill' && fromFloat) return refuse('the float is refilled from a deposit address', req);
      const record =
        req.kind === 'sweep' || req.kind === 'treasury' ? null : req.kind === 'refill' ? ((await o.refills?.(req.refillId)) ?? null) : await o.records(req.withdrawalId);
      const t = now();
      if (day(t) !== today.day) Object.assign(today, { day: day(t), byCurrency: {}, treasury: {} });
      while (signedAt.length && signedAt[0]! < t.getTime() - 60_000) signedAt.shift();
      const decision = decide(req, record, { lastMinute: signedAt.length, todayByCurrency: today.byCurrency, treasuryToday: today.treasury }, limits);
      if (!decision.ok) return refuse(decision.reason, req, decision.retry);
      const tx = Transaction.from({
        type: 2,
        chainId: req.tx.chainId,
        to: req.tx.to,
        value: BigInt(req.tx.value),
        data: req.tx.data || '0x',
        nonce: req.tx.nonce,
        gasLimit: BigInt(req.tx.gasLimit),
        maxFeePerGas: BigInt(req.tx.maxFeePerGas),
        maxPriorityFeePerGas: BigInt(req.tx.maxPriorityFeePerGas),
      });
      const signedTx = await wallet.signTransaction(tx);
      const hash = Transaction.from(signedTx).hash!;
      signedAt.push(t.getTime());
      if (req.kind === 'payout') add(today.byCurrency, decision.currency, decision.amount);
      if (req.kind === 'treasury') add(today.treasury, decision.currency, decision.amount);
      log.append('signed', { kind: req.kind, ...ids(req), currency: decision.currency, amount: decision.amount, to: decision.to, hash });
      return { signedTx, hash };
    },
  };
}
export type Signer = ReturnType<typeof createSigner>;

/**
 * The records from the database, read-only: the payout and the account's linked wallet. `query` is
 * a PostgreSQL client of a role that may only read (node-postgres' Pool, or PGlite in tests).
 */
export function databaseRecords(query: (text: string, params: unknown[]) => Promise<{ rows: unknown[] }>): Records {
  return async (id) => {
    const { rows } = await query(
      `select w.id::int as id, w.status, w.currency, w.amount::text as amount, w.fee::text as fee, w.to_address as "toAddress",
              w.chain_id as "chainId", w.nonce::int as nonce, u.wallet_address as "linkedWallet"
         from withdrawals w join users u on u.id = w.user_id where w.id = $1`,
      [id],
    );
    return (rows[0] as PayoutRecord | undefined) ?? null;
  };
}

/** The refill records from the database, read-only; the approvers are operators' ids. */
export function databaseRefills(query: (text: string, params: unknown[]) => Promise<{ rows: unknown[] }>): RefillRecords {
  return async (id) => {
    const { rows } = await query(
      `select id::int as id, status, currency, amount::text as amount, from_address as "fromAddress", chain_id as "chainId",
              requested_by::text as "requestedBy", approved_by::text as "approvedBy"
         from float_refills where id = $1`,
      [id],
    );
    return (rows[0] as RefillRecord | undefined) ?? null;
  };
}

/**
 * The records from the local stack's ledger reader: the API process owns the local PGlite database,
 * so it serves the same query on a loopback port. A stand-in for a read-only replica; in production
 * the signer reads PostgreSQL through a read-only role (`databaseRecords`).
 */
export function httpRecords<T = PayoutRecord>(baseUrl: string, kind: 'payouts' | 'refills' = 'payouts'): (id: number) => Promise<T | null> {
  return async (id) => {
    const res = await fetch(`${baseUrl}/v1/${kind}/${id}`);
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`the ledger reader answered ${res.status}`);
    return (await res.json()) as T;
  };
}
