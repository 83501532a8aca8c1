// Everything that needs ethers or siwe, in one module the wallet service imports on demand, so
// neither is in the first load of a page (DESIGN.md, Performance).
import { BrowserProvider, getAddress, hexlify, toUtf8Bytes } from 'ethers';
import { SiweMessage } from 'siwe';
import { toChainId } from '@app/web3';
import { readBalances } from '@app/web3/wallet';
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
