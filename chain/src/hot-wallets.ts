// The local pools' deposit addresses (once their hot wallets): the pools receive deposits at these
// addresses, and the signer sweeps them to the cold address, so each needs ETH for gas. Addresses
// of the public test mnemonic at m/44'/60'/0'/0/100..102 (the API's LOCAL_POOL_ADDRESSES); never
// use them on a real network. The float (…/105) pays withdrawals; the cold address (…/106) keeps
// what is swept.

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

/** The local payout float, m/44'/60'/0'/0/105: withdrawals are paid from it (its key is the signer's). */
export const LOCAL_FLOAT = '0xd96eb0f2e106ea7c0a939e9c460a17ace65fecff';
/** The local cold address, m/44'/60'/0'/0/106: sweeps go there; the signer does not hold its key. */
export const LOCAL_COLD = '0x4548774216f19914493d051481feb56246bc13f0';

/** Tops up an address below a tenth of the funding: ETH by anvil_setBalance, each token by a real mint. */
async function fundRich(rpcUrl: string, address: string): Promise<void> {
  const balance = BigInt(await rpc<string>(rpcUrl, 'eth_getBalance', [address, 'latest']));
  if (balance < TREASURY_ETH / 10n) await rpc(rpcUrl, 'anvil_setBalance', [address, toQuantity(balance + TREASURY_ETH)]);
  for (const token of LOCAL_TOKENS) {
    const full = parseUnits(TREASURY_TOKEN_FUNDING, token.decimals);
    const data = `0x70a08231${address.slice(2).padStart(64, '0')}`;
    const held = BigInt(await rpc<string>(rpcUrl, 'eth_call', [{ to: token.address, data }, 'latest']));
    if (held < full / 10n) await mintToken(rpcUrl, token, address, full);
  }
}

/** Tops up the local treasury at start. */
export const fundTreasury = (rpcUrl: string) => fundRich(rpcUrl, LOCAL_TREASURY);

/**
 * Funds the payout float and the cold address at start, as the treasury (1,000 ETH and 1,000,000
 * of every token, when below a tenth of that): the local stack pays from the first moment.
 */
export async function fundCustody(rpcUrl: string): Promise<void> {
  await fundRich(rpcUrl, LOCAL_FLOAT);
  await fundRich(rpcUrl, LOCAL_COLD);
}
