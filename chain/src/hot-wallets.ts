// The local pools' hot wallets: the pools receive deposits at these addresses and pay withdrawals
// from them, so each needs ETH for gas. Addresses of the public test mnemonic at
// m/44'/60'/0'/0/100..102 (the API's LOCAL_POOL_ADDRESSES); never use them on a real network.

import { parseUnits, ETH_DECIMALS } from '@app/web3';
import { rpc, toQuantity } from './rpc';
import { LOCAL_TOKENS, mintToken } from './tokens';

export const LOCAL_HOT_WALLETS = [
  '0x8c3229ec621644789d7f61faa82c6d0e5f97d43d',
  '0x9586a4833970847aef259ad5bfb7aa8901ddf746',
  '0x0e9971c0005d91336c1441b8f03c1c4fe5fb4584',
] as const;

/** Gas money each hot wallet is topped up to at start when it has less than GAS_FLOOR. */
export const HOT_WALLET_GAS = parseUnits('10', ETH_DECIMALS);
const GAS_FLOOR = parseUnits('1', ETH_DECIMALS);

/** Tops up every hot wallet below the floor (anvil_setBalance: no transaction, no nonce used). */
export async function fundHotWallets(rpcUrl: string): Promise<void> {
  for (const address of LOCAL_HOT_WALLETS) {
    const balance = BigInt(await rpc<string>(rpcUrl, 'eth_getBalance', [address, 'latest']));
    if (balance < GAS_FLOOR) await rpc(rpcUrl, 'anvil_setBalance', [address, toQuantity(balance + HOT_WALLET_GAS)]);
  }
}

/**
 * The local treasury (yield) address, m/44'/60'/0'/0/103 of the test mnemonic: it funds the interest
 * the books owe at the pools' paying addresses (the API's treasury job), so it starts rich.
 */
export const LOCAL_TREASURY = '0xc4c81d5c1851702d27d602aa8ff830a7689f17cc';
const TREASURY_ETH = parseUnits('1000', ETH_DECIMALS);
/** Whole tokens of each kind minted to the treasury when it holds less than a tenth of them. */
export const TREASURY_TOKEN_FUNDING = '1000000';

/** Tops up the local treasury at start: ETH by anvil_setBalance, each token by a real mint. */
export async function fundTreasury(rpcUrl: string): Promise<void> {
  const balance = BigInt(await rpc<string>(rpcUrl, 'eth_getBalance', [LOCAL_TREASURY, 'latest']));
  if (balance < TREASURY_ETH / 10n) await rpc(rpcUrl, 'anvil_setBalance', [LOCAL_TREASURY, toQuantity(balance + TREASURY_ETH)]);
  for (const token of LOCAL_TOKENS) {
    const full = parseUnits(TREASURY_TOKEN_FUNDING, token.decimals);
    const data = `0x70a08231${LOCAL_TREASURY.slice(2).padStart(64, '0')}`;
    const held = BigInt(await rpc<string>(rpcUrl, 'eth_call', [{ to: token.address, data }, 'latest']));
    if (held < full / 10n) await mintToken(rpcUrl, token, LOCAL_TREASURY, full);
  }
}
