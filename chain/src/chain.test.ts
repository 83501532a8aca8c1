import { Contract, ContractFactory, HDNodeWallet, Interface, JsonRpcProvider, Wallet, parseEther } from 'ethers';
import { ERC20_ABI, TOKENS, parseUnits } from '@app/web3';
import { readBalances, sendDeposit } from '@app/web3/wallet';
import {
  DEV_ACCOUNTS,
  DEV_MNEMONIC,
  DEV_TOKEN_FUNDING,
  TREASURY_TOKEN_FUNDING,
  LOCAL_TOKENS,
  MINTER,
  TOKEN_ARTIFACT,
  blockNumber,
  mine,
  revertTo,
  rpc,
  snapshot,
  startChain,
  type LocalChain,
} from './index';

const USDT = TOKENS[1].USDT!.address;
const tokenInterface = new Interface(TOKEN_ARTIFACT.abi as never);

let chain: LocalChain;
let provider: JsonRpcProvider;

beforeAll(async () => {
  chain = await startChain({ port: 0, quiet: true });
  // No response cache: the tests send and read back to back.
  provider = new JsonRpcProvider(chain.rpcUrl, 1, { staticNetwork: true, cacheTimeout: -1 });
});

afterAll(async () => {
  provider?.destroy();
  await chain?.stop();
});

const token = (address: string, runner = provider as never) => new Contract(address, ERC20_ABI, runner);
const devWallet = (index: number) => new Wallet(DEV_ACCOUNTS[index]!.privateKey, provider);

describe('the local chain', () => {
  it('answers as chain id 1 and installed all six tokens on first start', async () => {
    expect((await provider.getNetwork()).chainId).toBe(1n);
    expect(chain.chainId).toBe(1);
    expect([...chain.installed].sort()).toEqual(['BNB', 'BUSD', 'SOL', 'USDC', 'USDT', 'WAVES']);
  });

  it('has each token at its mainnet address with the decimals of the token table', async () => {
    for (const local of LOCAL_TOKENS) {
      const contract = token(local.address);
      expect(await contract.getFunction('symbol')()).toBe(local.currency);
      expect(await contract.getFunction('name')()).toBe(local.name);
      expect(Number(await contract.getFunction('decimals')())).toBe(TOKENS[1][local.currency]!.decimals);
      expect(await contract.getFunction('totalSupply')()).toBe(
        // The dev accounts' funding, and that of the treasury (it pays the interest the books owe),
        // the payout float and the cold address: three times the same.
        parseUnits(DEV_TOKEN_FUNDING, local.decimals) * BigInt(DEV_ACCOUNTS.length) + parseUnits(TREASURY_TOKEN_FUNDING, local.decimals) * 3n,
      );
    }
    expect(await token(TOKENS[1].SOL!.address).getFunction('decimals')()).toBe(9n);
  });

  it('writes the same storage the constructor would', async () => {
    const usdt = LOCAL_TOKENS.find((t) => t.currency === 'USDT')!;
    const factory = new ContractFactory(TOKEN_ARTIFACT.abi as never, TOKEN_ARTIFACT.bytecode, devWallet(9));
    const deployed = await factory.deploy(usdt.name, usdt.symbol, usdt.decimals, MINTER);
    await deployed.waitForDeployment();
    const deployedAddress = await deployed.getAddress();
    for (const slot of [0, 1, 2]) {
      expect(await provider.getStorage(USDT, slot)).toBe(await provider.getStorage(deployedAddress, slot));
    }
    expect(await provider.getCode(deployedAddress)).toBe(await provider.getCode(USDT));
  });

  it('funds the dev accounts of the default mnemonic with ETH and every token', async () => {
    const fromMnemonic = DEV_ACCOUNTS.map((_, i) => HDNodeWallet.fromPhrase(DEV_MNEMONIC, undefined, `m/44'/60'/0'/0/${i}`));
    expect(DEV_ACCOUNTS.map((a) => a.address)).toEqual(fromMnemonic.map((w) => w.address));
    expect(DEV_ACCOUNTS.map((a) => a.privateKey)).toEqual(fromMnemonic.map((w) => w.privateKey));
    const unlocked = await rpc<string[]>(chain.rpcUrl, 'eth_accounts');
    // The node signs for the dev accounts (and for the impersonated minter, listed after them).
    expect(unlocked.slice(0, DEV_ACCOUNTS.length).map((a) => a.toLowerCase())).toEqual(
      DEV_ACCOUNTS.map((a) => a.address.toLowerCase()),
    );

    const balances = await readBalances(provider, DEV_ACCOUNTS[5]!.address, 1);
    expect(balances.ETH).toBeGreaterThan(parseEther('9000'));
    for (const local of LOCAL_TOKENS) expect(balances[local.currency]).toBe(parseUnits(DEV_TOKEN_FUNDING, local.decimals));
  });

  it('moves tokens with transfer and reports it in a Transfer log', async () => {
    const [sender, receiver] = [devWallet(0), DEV_ACCOUNTS[1]!.address];
    const before = (await token(USDT).getFunction('balanceOf')(receiver)) as bigint;
    const tx = await token(USDT, sender as never).getFunction('transfer')(receiver, 12_345_678n);
    const receipt = await tx.wait();
    expect(receipt.status).toBe(1);
    const [log] = receipt.logs;
    expect(log.address).toBe(USDT);
    const parsed = tokenInterface.parseLog(log)!;
    expect(parsed.name).toBe('Transfer');
    expect(parsed.args.toArray()).toEqual([sender.address, receiver, 12_345_678n]);
    expect(await token(USDT).getFunction('balanceOf')(receiver)).toBe(before + 12_345_678n);
  });

  it('refuses a transfer above the balance with a decodable error', async () => {
    const poor = Wallet.createRandom(provider);
    await chain.fund(poor.address, { eth: '1' });
    const transfer = token(USDT, poor as never).getFunction('transfer');
    await expect(transfer.staticCall(DEV_ACCOUNTS[0]!.address, 1n)).rejects.toMatchObject({
      revert: { name: 'ERC20InsufficientBalance', args: [poor.address, 0n, 1n] },
    });
  });

  it('spends an allowance with transferFrom and refuses more than approved', async () => {
    const [owner, spender] = [devWallet(2), devWallet(3)];
    await (await token(USDT, owner as never).getFunction('approve')(spender.address, 500n)).wait();
    const transferFrom = token(USDT, spender as never).getFunction('transferFrom');
    await (await transferFrom(owner.address, spender.address, 200n)).wait();
    expect(await token(USDT).getFunction('allowance')(owner.address, spender.address)).toBe(300n);
    await expect(transferFrom.staticCall(owner.address, spender.address, 301n)).rejects.toMatchObject({
      revert: { name: 'ERC20InsufficientAllowance' },
    });
  });

  it('lets only the minter mint', async () => {
    const mint = new Contract(USDT, TOKEN_ARTIFACT.abi as never, devWallet(4)).getFunction('mint');
    await expect(mint.staticCall(DEV_ACCOUNTS[4]!.address, 1n)).rejects.toMatchObject({
      revert: { name: 'LocalTokenNotMinter', args: [DEV_ACCOUNTS[4]!.address] },
    });
  });

  it('funds fresh wallets with ETH and tokens, several at once', async () => {
    const wallets = Array.from({ length: 4 }, () => Wallet.createRandom());
    await Promise.all(wallets.map((w) => chain.fund(w.address, { eth: '2.5', tokens: { USDT: '1000', SOL: '0.000000001' } })));
    for (const w of wallets) {
      const balances = await readBalances(provider, w.address, 1);
      expect(balances).toEqual({ ETH: parseEther('2.5'), USDT: 1_000_000_000n, SOL: 1n, USDC: 0n, BUSD: 0n, BNB: 0n, WAVES: 0n });
    }
    // Funding twice adds up.
    await chain.fund(wallets[0]!.address, { eth: '0.5', tokens: { USDT: '1' } });
    expect(await provider.getBalance(wallets[0]!.address)).toBe(parseEther('3'));
    expect(await token(USDT).getFunction('balanceOf')(wallets[0]!.address)).toBe(1_001_000_000n);
  });

  it('funds correctly when several processes mint at the same moment', async () => {
    // Each spelling of the chain's URL gets its own in-process queue, as separate test workers would.
    const { fundAccount } = await import('./fund');
    const urls = Array.from({ length: 8 }, (_, i) => `${chain.rpcUrl}/?worker=${i}`);
    const wallets = Array.from({ length: 24 }, () => Wallet.createRandom().address);
    await Promise.all(wallets.map((address, i) => fundAccount(urls[i % urls.length]!, address, { tokens: { BNB: '3' } })));
    for (const address of wallets) {
      expect(await token(TOKENS[1].BNB!.address).getFunction('balanceOf')(address)).toBe(parseUnits('3', 18));
    }
  });

  it('gives the DEFAULT_FUNDING when asked for nothing in particular', async () => {
    const wallet = Wallet.createRandom();
    await chain.fund(wallet.address);
    const balances = await readBalances(provider, wallet.address, 1);
    expect(balances.ETH).toBe(parseEther('100'));
    expect(balances.USDT).toBe(parseUnits('100000', 6));
    expect(balances.WAVES).toBe(parseUnits('100000', 18));
  });
});

describe('deposits with the @app/web3 wallet helpers', () => {
  const pool = Wallet.createRandom().address;

  it('sends ETH as a native transfer and a token as transfer()', async () => {
    const depositor = Wallet.createRandom(provider);
    await chain.fund(depositor.address, { eth: '10', tokens: { USDT: '500' } });

    const ethTx = await sendDeposit(depositor, { currency: 'ETH', chainId: 1, to: pool, units: parseEther('1.25') });
    expect((await ethTx.wait())?.status).toBe(1);
    expect(await provider.getBalance(pool)).toBe(parseEther('1.25'));

    const usdtTx = await sendDeposit(depositor, { currency: 'USDT', chainId: 1, to: pool, units: 250_000_000n });
    const receipt = await usdtTx.wait();
    expect(receipt?.to).toBe(USDT);
    expect(tokenInterface.parseLog(receipt!.logs[0]!)!.args.toArray()).toEqual([depositor.address, pool, 250_000_000n]);
    expect(await token(USDT).getFunction('balanceOf')(pool)).toBe(250_000_000n);
  });

  it('fails a token deposit above the balance before anything is sent', async () => {
    const depositor = Wallet.createRandom(provider);
    await chain.fund(depositor.address, { eth: '1', tokens: { USDC: '1' } });
    await expect(sendDeposit(depositor, { currency: 'USDC', chainId: 1, to: pool, units: 1_000_001n })).rejects.toMatchObject({
      revert: { name: 'ERC20InsufficientBalance', args: [depositor.address, 1_000_000n, 1_000_001n] },
    });
    expect(await provider.getTransactionCount(depositor.address)).toBe(0);
  });

  it('refuses a currency that does not exist on the chain', async () => {
    const depositor = Wallet.createRandom(provider);
    await expect(sendDeposit(depositor, { currency: 'SOL', chainId: 56, to: pool, units: 1n })).rejects.toThrow(
      'SOL is not available on chain 56',
    );
  });
});

describe('chain control for tests', () => {
  it('mines blocks for confirmations and reverts to a snapshot like a reorg', async () => {
    const start = await blockNumber(chain.rpcUrl);
    await mine(chain.rpcUrl, 12);
    expect(await blockNumber(chain.rpcUrl)).toBe(start + 12);

    const id = await snapshot(chain.rpcUrl);
    const tx = await devWallet(6).sendTransaction({ to: DEV_ACCOUNTS[7]!.address, value: 1n });
    await tx.wait();
    expect(await provider.getTransactionReceipt(tx.hash)).not.toBeNull();
    await revertTo(chain.rpcUrl, id);
    expect(await provider.getTransactionReceipt(tx.hash)).toBeNull();
    expect(await blockNumber(chain.rpcUrl)).toBe(start + 12);
  });
});
