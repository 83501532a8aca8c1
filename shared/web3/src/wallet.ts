// Wallet and chain calls with ethers: the '@app/web3/wallet' entry. Import it dynamically
// (await import('@app/web3/wallet')) from screens that talk to the wallet, so ethers stays out of
// every first load (DESIGN.md "Performance").

import { Contract, isCallException, type ContractRunner, type Provider, type Signer, type TransactionResponse } from 'ethers';
import { type ChainId, type Currency } from './chains';
import { ERC20_ABI } from './erc20';
import { currenciesOn, tokenOf } from './tokens';

/** An ERC-20 contract bound to a provider (reads) or a signer (transfers). */
export function erc20(address: string, runner: ContractRunner): Contract {
  return new Contract(address, ERC20_ABI, runner);
}

/**
 * Base-unit balances of every currency that exists on the chain, ETH included. Currencies absent
 * from the chain read as 0n so the wallet state always has all seven keys (spec §3 "Wallet state").
 */
export async function readBalances(provider: Provider, account: string, chainId: ChainId): Promise<Record<Currency, bigint>> {
  const balances: Record<Currency, bigint> = { BNB: 0n, BUSD: 0n, ETH: 0n, SOL: 0n, USDC: 0n, USDT: 0n, WAVES: 0n };
  await Promise.all(
    currenciesOn(chainId).map(async (currency) => {
      const token = tokenOf(currency, chainId);
      balances[currency] = token
        ? ((await erc20(token.address, provider).getFunction('balanceOf')(account)) as bigint)
        : await provider.getBalance(account);
    }),
  );
  return balances;
}

export interface DepositTransfer {
  currency: Currency;
  chainId: ChainId;
  /** The pool's receiving address for this currency. */
  to: string;
  /** Amount in base units (wei for ETH), already rounded as the caller wants. */
  units: bigint;
}

/**
 * Sends a deposit from the wallet (spec §7): ETH as a native transfer of `units` wei; a token as a
 * standard transfer(to, units), with gas estimated first so a transfer that would revert (say, too
 * small a balance) fails here, before the wallet asks the person to sign.
 */
export async function sendDeposit(signer: Signer, deposit: DepositTransfer): Promise<TransactionResponse> {
  if (deposit.units <= 0n) throw new Error('The deposit amount must be more than zero');
  if (deposit.currency === 'ETH') {
    return signer.sendTransaction({ to: deposit.to, value: deposit.units });
  }
  const token = tokenOf(deposit.currency, deposit.chainId);
  if (!token) throw new Error(`${deposit.currency} is not available on chain ${deposit.chainId}`);
  const contract = erc20(token.address, signer);
  const transfer = contract.getFunction('transfer');
  let gasLimit: bigint;
  try {
    gasLimit = await transfer.estimateGas(deposit.to, deposit.units);
  } catch (error) {
    // ethers does not decode a revert met while estimating; do it so the message says why.
    if (isCallException(error) && error.data) throw contract.interface.makeError(error.data, error.transaction);
    throw error;
  }
  return (await transfer(deposit.to, deposit.units, { gasLimit })) as TransactionResponse;
}
