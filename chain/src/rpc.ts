// A minimal JSON-RPC client over fetch for anvil's own methods (anvil_setCode, evm_mine, ...). Plain
// fetch rather than an ethers provider: no 250 ms response cache, no polling, nothing to dispose of.

let nextId = 1;

export class RpcError extends Error {
  override readonly name = 'RpcError';
  constructor(
    message: string,
    readonly code?: number,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export async function rpc<T = unknown>(rpcUrl: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  });
  if (!response.ok) throw new RpcError(`${method}: HTTP ${response.status}`);
  const body = (await response.json()) as { result?: T; error?: { message: string; code?: number; data?: unknown } };
  if (body.error) throw new RpcError(`${method}: ${body.error.message}`, body.error.code, body.error.data);
  return body.result as T;
}

export const toQuantity = (value: bigint | number): string => `0x${value.toString(16)}`;

/** Mines `blocks` empty blocks at once: how tests reach a deposit's N confirmations. */
export async function mine(rpcUrl: string, blocks = 1): Promise<void> {
  await rpc(rpcUrl, 'anvil_mine', [toQuantity(blocks)]);
}

/** Takes a snapshot of the whole chain; revertTo(id) later drops every block after it (a reorg, for tests). */
export async function snapshot(rpcUrl: string): Promise<string> {
  return rpc<string>(rpcUrl, 'evm_snapshot');
}

export async function revertTo(rpcUrl: string, snapshotId: string): Promise<void> {
  const reverted = await rpc<boolean>(rpcUrl, 'evm_revert', [snapshotId]);
  if (!reverted) throw new RpcError(`evm_revert: no snapshot ${snapshotId}`);
}

export async function blockNumber(rpcUrl: string): Promise<number> {
  return Number(await rpc<string>(rpcUrl, 'eth_blockNumber'));
}
