import { apiMessages as M, formatMessage } from '@app/contracts';
import { TRANSFER_TOPIC, currencyOfToken, type ChainId } from '@app/web3';
import type { ChainLog, ChainReader, ChainReceipt, ChainTx } from '../chain';

/** Why a deposit is refused: the message (catalogue), a stable code and the HTTP status. */
export class DepositRefused extends Error {
  constructor(
    message: string,
    public readonly code: string,
    public readonly status = 400,
  ) {
    super(message);
  }
}

/** One credit a transaction carries: the whole value for ETH, one Transfer log for a token. */
export type FoundTransfer = {
  logIndex: number;
  from: string;
  to: string;
  tokenAddress: string | null;
  amount: bigint;
};

export type VerifiedDeposit = {
  transfers: FoundTransfer[];
  blockNumber: number;
  blockHash: string;
  confirmations: number;
};

export type DepositClaim = {
  chainId: number;
  hash: string;
  currency: string;
  /** The pool's receiving address for that currency (lower-case). */
  poolAddress: string;
  /** The linked wallet (lower-case). */
  wallet: string;
};

const lower = (a: string | null | undefined) => (a ?? '').toLowerCase();
const topicAddress = (topic: string) => `0x${topic.slice(-40)}`.toLowerCase();

/** A standard ERC-20 Transfer log decoded, or null for anything else. */
export function decodeTransfer(log: ChainLog): { from: string; to: string; amount: bigint } | null {
  if (log.topics.length !== 3 || lower(log.topics[0]) !== TRANSFER_TOPIC) return null;
  if (!/^0x[0-9a-fA-F]{64}$/.test(log.data)) return null;
  return { from: topicAddress(log.topics[1] as string), to: topicAddress(log.topics[2] as string), amount: BigInt(log.data) };
}

/**
 * The token transfers in a receipt that credit `claim`, or a refusal saying what is wrong. Checked
 * in the order that gives the most useful message: recipient, token, currency, sender.
 */
export function tokenTransfers(receipt: ChainReceipt, claim: DepositClaim): FoundTransfer[] {
  const logs = receipt.logs
    .map((log) => ({ log, t: decodeTransfer(log) }))
    .filter((x): x is { log: ChainLog; t: NonNullable<ReturnType<typeof decodeTransfer>> } => x.t !== null);
  const toPool = logs.filter((x) => x.t.to === claim.poolAddress);
  const wrongRecipient = new DepositRefused(formatMessage(M.depositWrongRecipient, { currency: claim.currency }), 'WRONG_RECIPIENT');
  if (!toPool.length) {
    // A transfer of a token not on the list, to wherever: say the token is the problem.
    if (logs.length && logs.every((x) => !currencyOfToken(claim.chainId as ChainId, x.log.address))) {
      throw new DepositRefused(M.depositTokenNotAllowed, 'TOKEN_NOT_ALLOWED');
    }
    throw wrongRecipient;
  }
  const allowed = toPool.filter((x) => currencyOfToken(claim.chainId as ChainId, x.log.address) !== undefined);
  if (!allowed.length) throw new DepositRefused(M.depositTokenNotAllowed, 'TOKEN_NOT_ALLOWED');
  const ofCurrency = allowed.filter((x) => currencyOfToken(claim.chainId as ChainId, x.log.address) === claim.currency);
  if (!ofCurrency.length) {
    throw new DepositRefused(formatMessage(M.depositWrongCurrency, { currency: claim.currency }), 'WRONG_CURRENCY');
  }
  const mine = ofCurrency.filter((x) => x.t.from === claim.wallet && x.t.amount > 0n);
  if (!mine.length) throw new DepositRefused(M.depositNotYourWallet, 'NOT_YOUR_WALLET');
  return mine.map((x) => ({ logIndex: x.log.position, from: x.t.from, to: x.t.to, tokenAddress: lower(x.log.address), amount: x.t.amount }));
}

export type ChainReads = { nodeChainId: number; receipt: ChainReceipt | null; tx: ChainTx | null; latest: number };

/**
 * The reads a deposit needs, started before the pool's address is known (they do not depend on
 * it). A token deposit needs only the receipt (a transaction mined on this node carries its chain
 * id); ETH needs the transaction too, for its value. Fewer reads: the node is the bottleneck.
 */
export async function readDeposit(chain: ChainReader, hash: string, currency: string): Promise<ChainReads> {
  const eth = currency === 'ETH';
  const [nodeChainId, receipt, latest, ethTx] = await Promise.all([
    chain.chainId(),
    chain.receipt(hash),
    chain.blockNumber(500),
    eth ? chain.transaction(hash) : null,
  ]);
  // Not mined (or unknown): the transaction says which.
  const tx = ethTx ?? (receipt ? null : await chain.transaction(hash));
  return { nodeChainId, receipt, tx, latest };
}

/**
 * Reads a reported deposit from the chain and answers what it credits. The client's amount plays no
 * part: every figure comes from the transaction, its receipt and the token contract's logs.
 */
export async function verifyDeposit(chain: ChainReader, claim: DepositClaim, reads?: ChainReads): Promise<VerifiedDeposit> {
  const { nodeChainId, receipt, tx, latest } = reads ?? (await readDeposit(chain, claim.hash, claim.currency));
  const eth = claim.currency === 'ETH';
  if (nodeChainId !== claim.chainId) throw new DepositRefused(M.depositWrongNetwork, 'WRONG_NETWORK');
  if (!receipt && !tx) throw new DepositRefused(M.depositNotFound, 'TX_NOT_FOUND', 404);
  // Pre-EIP-155 transactions carry no chain id (0); any other id is another network's transaction.
  if (tx && tx.chainId !== 0n && tx.chainId !== BigInt(claim.chainId)) throw new DepositRefused(M.depositWrongNetwork, 'WRONG_NETWORK');
  if (!receipt) throw new DepositRefused(M.depositNotMined, 'TX_NOT_MINED', 409);
  if (eth && !tx) throw new DepositRefused(M.depositNotFound, 'TX_NOT_FOUND', 404);
  if (receipt.status !== 1) throw new DepositRefused(M.depositTxFailed, 'TX_FAILED');

  let transfers: FoundTransfer[];
  if (eth && tx) {
    if (lower(tx.to) !== claim.poolAddress) {
      // ETH claimed but the transaction went to a token contract: the currency is wrong, not the pool.
      const token = tx.to ? currencyOfToken(claim.chainId as ChainId, tx.to) : undefined;
      if (token) throw new DepositRefused(formatMessage(M.depositWrongCurrency, { currency: claim.currency }), 'WRONG_CURRENCY');
      throw new DepositRefused(formatMessage(M.depositWrongRecipient, { currency: claim.currency }), 'WRONG_RECIPIENT');
    }
    if (lower(tx.from) !== claim.wallet) throw new DepositRefused(M.depositNotYourWallet, 'NOT_YOUR_WALLET');
    if (tx.value <= 0n) throw new DepositRefused(formatMessage(M.depositWrongCurrency, { currency: claim.currency }), 'WRONG_CURRENCY');
    transfers = [{ logIndex: -1, from: lower(tx.from), to: lower(tx.to), tokenAddress: null, amount: tx.value }];
  } else {
    transfers = tokenTransfers(receipt, claim);
  }
  return {
    transfers,
    blockNumber: receipt.blockNumber,
    blockHash: receipt.blockHash,
    // `latest` may be a moment old: a mined transaction has at least its own block.
    confirmations: Math.max(1, latest - receipt.blockNumber + 1),
  };
}

/**
 * Re-checks a recorded deposit against a fresh receipt (the job, before crediting): the receipt
 * must still be a success and, for a token, still hold the same Transfer. Deposits are keyed by the
 * log's position within its own transaction, which a re-inclusion in another block does not move.
 */
export function stillCredits(receipt: ChainReceipt, row: { logIndex: number; tokenAddress: string | null; fromAddress: string | null; toAddress: string | null; amount: string }): number | null {
  if (receipt.status !== 1) return null;
  if (row.logIndex < 0) return -1;
  const same = receipt.logs.filter((log) => {
    const t = decodeTransfer(log);
    return t && lower(log.address) === row.tokenAddress && t.from === row.fromAddress && t.to === row.toAddress && t.amount === BigInt(row.amount);
  });
  if (!same.length) return null;
  return (same.find((l) => l.position === row.logIndex) ?? same[0])!.position;
}
