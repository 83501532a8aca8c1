// Everything that needs ethers or siwe, in one module the wallet service imports on demand, so
// neither is in the first load of a page (DESIGN.md, Performance).
import { BrowserProvider, getAddress, hexlify, toUtf8Bytes } from 'ethers';
import { SiweMessage } from 'siwe';
import { toChainId } from '@app/web3';
import { readBalances, sendDeposit } from '@app/web3/wallet';
import type { WalletTransfer } from '@app/contracts';
import type { Eip1193Provider } from './discovery';

export async function readWalletBalances(provider: Eip1193Provider, account: string, chainId: number): Promise<Record<string, string>> {
  const chain = toChainId(chainId);
  if (!chain) return {};
  const balances = await readBalances(new BrowserProvider(provider, chainId, { cacheTimeout: -1 }), account, chain);
  return Object.fromEntries(Object.entries(balances).map(([currency, units]) => [currency, units.toString()]));
}

export interface SiweRequest {
  address: string;
  chainId: number;
  nonce: string;
  issuedAt: string;
  expiresAt: string;
  statement: string;
}

/** An EIP-4361 message for this site, signed by the wallet with personal_sign. */
export async function signInWithEthereum(provider: Eip1193Provider, request: SiweRequest): Promise<{ message: string; signature: string }> {
  const address = getAddress(request.address);
  const message = new SiweMessage({
    domain: location.host,
    address,
    statement: request.statement,
    uri: location.origin,
    version: '1',
    chainId: request.chainId,
    nonce: request.nonce,
    issuedAt: request.issuedAt,
    expirationTime: request.expiresAt,
  }).prepareMessage();
  const signature = (await provider.request({ method: 'personal_sign', params: [hexlify(toUtf8Bytes(message)), address] })) as string;
  return { message, signature };
}

export function checksum(address: string): string {
  return getAddress(address);
}

/** A deposit from the connected account, resolving with the hash once the wallet sent it. */
export async function sendTransfer(provider: Eip1193Provider, chainId: number, transfer: WalletTransfer): Promise<{ hash: string }> {
  const chain = toChainId(chainId);
  if (!chain) throw new Error(`Network id ${chainId} is not supported`);
  const signer = await new BrowserProvider(provider, chainId, { cacheTimeout: -1 }).getSigner();
  const tx = await sendDeposit(signer, { currency: transfer.currency, chainId: chain, to: getAddress(transfer.to), units: BigInt(transfer.units) });
  return { hash: tx.hash };
}

export async function waitForConfirmations(provider: Eip1193Provider, chainId: number, hash: string, confirmations: number): Promise<void> {
  await new BrowserProvider(provider, chainId, { cacheTimeout: -1, pollingInterval: 1000 }).waitForTransaction(hash, confirmations);
}
