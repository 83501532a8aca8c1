// The local pools' hot wallets: the pools receive deposits at these addresses and pay withdrawals
// from them, so each needs ETH for gas. Addresses of the public test mnemonic at
// m/44'/60'/0'/0/100..102 (the API's LOCAL_POOL_ADDRESSES); never use them on a real network.

import { parseUnits, ETH_DECIMALS } from '@app/web3';
import { rpc, toQuantity } from './rpc';

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
