import { JsonRpcProvider, Network } from 'ethers';

export type ChainLog = { address: string; topics: readonly string[]; data: string; index: number };
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

/** JSON-RPC through ethers, without its 250 ms cache (the job reads back to back). */
export function rpcChainReader(rpcUrl: string): ChainReader {
  const provider = new JsonRpcProvider(rpcUrl, Network.from(1), { staticNetwork: true, cacheTimeout: -1, batchMaxCount: 1 });
  let chainId: Promise<number> | null = null;
  let latest: { at: number; value: Promise<number> } | null = null;
  return {
    transaction: (hash) =>
      guard(async () => {
        const tx = await provider.getTransaction(hash);
        if (!tx) return null;
        return { hash: tx.hash, from: tx.from, to: tx.to, value: tx.value, chainId: tx.chainId, blockNumber: tx.blockNumber };
      }),
    receipt: (hash) =>
      guard(async () => {
        const r = await provider.getTransactionReceipt(hash);
        if (!r) return null;
        return {
          status: r.status,
          blockNumber: r.blockNumber,
          blockHash: r.blockHash,
          from: r.from,
          to: r.to,
          logs: r.logs.map((l) => ({ address: l.address, topics: l.topics, data: l.data, index: l.index })),
        };
      }),
    blockNumber: (maxAgeMs = 0) => {
      const now = Date.now();
      // A request in flight is always fresh enough to share; a settled one only within maxAgeMs.
      if (latest && (latest.at < 0 || now - latest.at <= maxAgeMs)) return latest.value;
      const entry: { at: number; value: Promise<number> } = { at: -1, value: guard(() => provider.getBlockNumber()) };
      latest = entry;
      entry.value.then(
        () => (entry.at = Date.now()),
        () => latest === entry && (latest = null),
      );
      return entry.value;
    },
    chainId: () => {
      chainId ??= guard(async () => Number(await provider.send('eth_chainId', [])));
      chainId.catch(() => (chainId = null));
      return chainId;
    },
    destroy: () => provider.destroy(),
  };
}
