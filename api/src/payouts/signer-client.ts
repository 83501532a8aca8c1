// The API's side of the signer (signer/README.md): it holds no key, so every payout, cancel, sweep,
// treasury transfer and solvency header is a request to the signer's loopback port, answered with
// a signature or a refusal.
import type { Transfer } from './chain-tx';

export type UnsignedTx = Transfer & { chainId: number; from: string; nonce: number; gasLimit: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
export type SignKind = { kind: 'payout' | 'cancel'; withdrawalId: number } | { kind: 'sweep' } | { kind: 'refill'; refillId: number } | { kind: 'treasury' };
/** A refusal with `retry` passes with time: the signer's rate (a minute) or its day's cap (the next UTC day). */
export type SignAnswer = { signedTx: string; hash: string } | { refused: string; retry?: 'minute' | 'day' };
/** `treasury` and `solvency` are null when the signer holds no such key. */
export type CustodyAddresses = { float: string; cold: string; deposits: string[]; treasury: string | null; solvency: string | null };

export type PayoutSigner = {
  /** The float (pays), the cold address and the deposit addresses the signer holds keys for; lower case. */
  addresses(): Promise<CustodyAddresses>;
  /** Signed bytes, or the signer's reason to refuse. Throws when the signer cannot be reached (the job tries again later). */
  sign(what: SignKind, tx: UnsignedTx): Promise<SignAnswer>;
  /** The proof-of-solvency control message of an address the signer holds, signed (EIP-191). */
  signMessage(address: string, message: string): Promise<string>;
  /** A snapshot's canonical header signed with the solvency key (EIP-191); throws `SignerRefused` for anything else. */
  signHeader(header: string): Promise<string>;
};

export class SignerUnavailable extends Error {}
/** The signer would not sign: its reason. */
export class SignerRefused extends Error {}

/** The signer over HTTP on its loopback port (SIGNER_URL). */
export function httpSigner(baseUrl: string): PayoutSigner {
  let known: CustodyAddresses | null = null;
  const request = async (path: string, init?: RequestInit) => {
    try {
      return await fetch(`${baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
    } catch (err) {
      throw new SignerUnavailable(`the signer at ${baseUrl} cannot be reached: ${(err as Error).message}`);
    }
  };
  return {
    async addresses() {
      if (known) return known;
      const res = await request('/v1/addresses');
      if (!res.ok) throw new SignerUnavailable(`the signer answered ${res.status}`);
      const a = (await res.json()) as CustodyAddresses;
      known = {
        float: a.float.toLowerCase(),
        cold: a.cold.toLowerCase(),
        deposits: a.deposits.map((d) => d.toLowerCase()),
        treasury: a.treasury?.toLowerCase() ?? null,
        solvency: a.solvency?.toLowerCase() ?? null,
      };
      return known;
    },
    async sign(what, tx) {
      const body = {
        ...what,
        tx: {
          chainId: tx.chainId,
          from: tx.from,
          to: tx.to,
          value: tx.value.toString(),
          data: tx.data,
          nonce: tx.nonce,
          gasLimit: tx.gasLimit.toString(),
          maxFeePerGas: tx.maxFeePerGas.toString(),
          maxPriorityFeePerGas: tx.maxPriorityFeePerGas.toString(),
        },
      };
      const res = await request('/v1/sign', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (res.status === 403) {
        const b = (await res.json()) as { refused: string; retry?: unknown };
        return { refused: String(b.refused), ...(b.retry === 'minute' || b.retry === 'day' ? { retry: b.retry } : {}) };
      }
      if (!res.ok) throw new SignerUnavailable(`the signer answered ${res.status}`);
      return (await res.json()) as { signedTx: string; hash: string };
    },
    async signMessage(address, message) {
      const res = await request('/v1/sign-message', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ address, message }) });
      if (!res.ok) throw new SignerUnavailable(`the signer answered ${res.status} to a control message for ${address}`);
      return ((await res.json()) as { signature: string }).signature;
    },
    async signHeader(header) {
      const res = await request('/v1/sign-message', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'solvency', message: header }) });
      if (res.status === 403) throw new SignerRefused(`the signer refused the solvency header: ${String(((await res.json()) as { refused: unknown }).refused)}`);
      if (!res.ok) throw new SignerUnavailable(`the signer answered ${res.status} to a solvency header`);
      return ((await res.json()) as { signature: string }).signature;
    },
  };
}
