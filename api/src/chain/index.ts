/** `index` is the log's place in its block; `position` its place in its own transaction (stable across a reorg). */
export type ChainLog = { address: string; topics: readonly string[]; data: string; index: number; position: number };
export type ChainReceipt = { status: number | null; blockNumber: number; blockHash: string; from: string; to: string | null; logs: readonly ChainLog[] };
export type ChainTx = { hash: string; from: string; to: string | null; value: bigint; chainId: bigint; blockNumber: number | null };

/** The few chain reads deposits need; an interface so tests and other nodes can stand in. */
export interface ChainReader {
  transaction(hash: string): Promise<ChainTx | null>;
  receipt(hash: string): Promise<ChainReceipt | null>;
  /** The latest block; `maxAgeMs` accepts an answer that old (concurrent callers share one request). */
  blockNumber(maxAgeMs?: number): Promise<number>;
  /** The node's chain id (asked once; asked again after a failure). */
  chainId(): Promise<number>;
  /** Any other JSON-RPC call (the payouts and the watcher); throws ChainUnavailable like the rest. */
  call<T>(method: string, params: unknown[]): Promise<T>;
  /** The newest block the node calls finalized (production credits only up to it). */
  finalizedBlock(): Promise<number>;
  destroy(): void;
}

/** Raised when the node cannot be reached or answers with an error: the caller retries later. */
export class ChainUnavailable extends Error {}

async function guard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw new ChainUnavailable((err as Error).message, { cause: err });
  }
}

type RawLog = { address: string; topics: string[]; data: string; logIndex: string };
type RawReceipt = { status?: string; blockNumber: string; blockHash: string; from: string; to: string | null; logs: RawLog[] };
type RawTx = { hash: string; from: string; to: string | null; value: string; chainId?: string; blockNumber: string | null };

/**
 * JSON-RPC over fetch (undici's keep-alive pool): the four reads need no library, and ethers'
 * provider opens a connection per request, which halves the throughput against a busy node.
 */
export function rpcChainReader(rpcUrl: string, timeoutMs = 10_000): ChainReader {
  let nextId = 1;
  let chainId: Promise<number> | null = null;
  let latest: { at: number; value: Promise<number> } | null = null;
  const call = <T>(method: string, params: unknown[]): Promise<T> =>
    guard(async () => {
      const res = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!res.ok) throw new Error(`${method}: HTTP ${res.status}`);
      const body = (await res.json()) as { result?: T; error?: { message: string } };
      if (body.error) throw new Error(`${method}: ${body.error.message}`);
      return body.result as T;
    });
  const num = (hex: string | null | undefined) => (hex ? Number(BigInt(hex)) : 0);
  return {
    async transaction(hash) {
      const tx = await call<RawTx | null>('eth_getTransactionByHash', [hash]);
      if (!tx) return null;
      return {
        hash: tx.hash,
        from: tx.from,
        to: tx.to,
        value: BigInt(tx.value),
        chainId: tx.chainId ? BigInt(tx.chainId) : 0n,
        blockNumber: tx.blockNumber ? num(tx.blockNumber) : null,
      };
    },
    async receipt(hash) {
      const r = await call<RawReceipt | null>('eth_getTransactionReceipt', [hash]);
      if (!r) return null;
      return {
        // Receipts before Byzantium have no status: treated as unknown (never credited).
        status: r.status === undefined ? null : num(r.status),
        blockNumber: num(r.blockNumber),
        blockHash: r.blockHash,
        from: r.from,
        to: r.to,
        logs: r.logs.map((l, position) => ({ address: l.address, topics: l.topics, data: l.data, index: num(l.logIndex), position })),
      };
    },
    blockNumber: (maxAgeMs = 0) => {
      const now = Date.now();
      // A request in flight is always fresh enough to share; a settled one only within maxAgeMs.
      if (latest && (latest.at < 0 || now - latest.at <= maxAgeMs)) return latest.value;
      const entry: { at: number; value: Promise<number> } = { at: -1, value: call<string>('eth_blockNumber', []).then(num) };
      latest = entry;
      entry.value.then(
        () => (entry.at = Date.now()),
        () => latest === entry && (latest = null),
      );
      return entry.value;
    },
    call,
    finalizedBlock: async () => num((await call<{ number: string } | null>('eth_getBlockByNumber', ['finalized', false]))?.number),
    chainId: () => {
      chainId ??= call<string>('eth_chainId', []).then(num);
      chainId.catch(() => (chainId = null));
      return chainId;
    },
    destroy: () => undefined,
  };
}
