import { Contract, ContractFactory, JsonRpcProvider, Network, Wallet, type InterfaceAbi } from 'ethers';
import { DEV_ACCOUNTS, TOKEN_ARTIFACT } from '@app/chain';
import { ERC20_ABI, TOKENS, type TokenCurrency } from '@app/web3';
import type { App } from '../src/app';
import { call, register, siweSign } from './helpers';

/** A provider without ethers' 250 ms cache: tests send back to back. */
export const providerFor = (rpcUrl: string) => new JsonRpcProvider(rpcUrl, Network.from(1), { staticNetwork: true, cacheTimeout: -1, pollingInterval: 20 });

export const devWallet = (rpcUrl: string, index: number) => new Wallet(DEV_ACCOUNTS[index]!.privateKey, providerFor(rpcUrl));

/** A signed-in user whose account has `wallet` linked (the real /connect-mm with an EIP-4361 proof). */
export async function userWithWallet(app: App, wallet: Wallet, extra: Record<string, unknown> = {}) {
  const u = await register(app, undefined, extra);
  const id = (u.user as { id: string }).id;
  const r = await call(app, 'POST', '/api/v1/connect-mm', { token: u.token, body: { id, metaMaskAddress: wallet.address, ...(await siweSign(app, wallet)) } });
  if (r.status !== 200) throw new Error(`connect-mm failed: ${r.status} ${JSON.stringify(r.body)}`);
  return { ...u, id, wallet };
}

/** Sends ETH and waits for the block; answers the hash. */
export async function sendEth(wallet: Wallet, to: string, value: bigint): Promise<string> {
  const tx = await wallet.sendTransaction({ to, value });
  await tx.wait();
  return tx.hash;
}

export const tokenContract = (wallet: Wallet, currency: TokenCurrency) => new Contract(TOKENS[1][currency]!.address, ERC20_ABI, wallet);

/** A standard ERC-20 transfer of an allowlisted token; `gasLimit` skips estimation so a failing one is mined. */
export async function sendToken(wallet: Wallet, currency: TokenCurrency, to: string, amount: bigint, gasLimit?: bigint): Promise<string> {
  const tx = await tokenContract(wallet, currency).getFunction('transfer')(to, amount, gasLimit ? { gasLimit } : {});
  await tx.wait().catch(() => undefined); // a reverted transfer is still mined
  return tx.hash as string;
}

/** Deploys a token that is not in the allowlist, minted to the wallet. */
export async function deployStrayToken(wallet: Wallet): Promise<Contract> {
  const factory = new ContractFactory(TOKEN_ARTIFACT.abi as InterfaceAbi, TOKEN_ARTIFACT.bytecode, wallet);
  const token = (await factory.deploy('Fake Tether', 'USDT', 6, wallet.address)) as Contract;
  await token.waitForDeployment();
  await (await token.getFunction('mint')(wallet.address, 1_000_000_000n)).wait();
  return token;
}
