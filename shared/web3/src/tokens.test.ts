import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getAddress } from 'ethers';
import {
  BALANCE_CURRENCIES,
  CHAIN_IDS,
  CURRENCIES,
  STABLECOINS,
  TOKEN_CURRENCIES,
  explorerTxUrl,
  toChainId,
} from './chains';
import { ETH_DECIMALS, TOKENS, WEI_SCALE, allTokens, currenciesOn, currencyOfToken, decimalsOf, tokenOf } from './tokens';
import { shortAddress } from './display';

describe('the token table', () => {
  it('has the six tokens on Ethereum at their mainnet contracts', () => {
    expect(TOKENS[1]).toEqual({
      USDT: { address: '0xdAC17F958D2ee523a2206206994597C13D831ec7', decimals: 6 },
      USDC: { address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', decimals: 6 },
      BUSD: { address: '0x4Fabb145d64652a948d72533023f6E7A623C7C53', decimals: 18 },
      SOL: { address: '0xD31a59c85aE9D8edEFeC411D448f90841571b89c', decimals: 9 },
      BNB: { address: '0xB8c77482e45F1F44dE1745F52C74426C631bDD52', decimals: 18 },
      WAVES: { address: '0x1cF4592ebfFd730c7dc92c1bdFFDfc3B9EfCf29a', decimals: 18 },
    });
  });

  it('has only stablecoins off Ethereum, with 18 decimals on BNB Smart Chain', () => {
    for (const chainId of [137, 56, 250] as const) {
      expect(Object.keys(TOKENS[chainId]).sort()).toEqual([...STABLECOINS].sort());
    }
    for (const token of Object.values(TOKENS[56])) expect(token.decimals).toBe(18);
    expect(decimalsOf('USDT', 137)).toBe(6);
    expect(decimalsOf('USDT', 56)).toBe(18);
    expect(decimalsOf('SOL', 56)).toBeUndefined();
    expect(tokenOf('WAVES', 250)).toBeUndefined();
  });

  it('writes every address in its EIP-55 checksum form, each contract once per chain', () => {
    for (const { chainId, token } of allTokens()) {
      expect(getAddress(token.address)).toBe(token.address);
      const sameChain = Object.values(TOKENS[chainId]).filter((t) => t.address === token.address);
      expect(sameChain).toHaveLength(1);
    }
  });

  it('treats ETH as the native coin with 18 decimals and no contract', () => {
    expect(tokenOf('ETH', 1)).toBeUndefined();
    expect(decimalsOf('ETH', 1)).toBe(ETH_DECIMALS);
    expect(WEI_SCALE).toBe(10n ** 18n);
    expect(currenciesOn(1)).toEqual(['ETH', 'USDT', 'USDC', 'BUSD', 'SOL', 'BNB', 'WAVES']);
    expect(currenciesOn(56)).toEqual(['ETH', 'USDT', 'USDC', 'BUSD']);
  });

  it('finds the currency of a token contract from a lower-case log address', () => {
    expect(currencyOfToken(1, '0xdac17f958d2ee523a2206206994597c13d831ec7')).toBe('USDT');
    expect(currencyOfToken(56, '0xdac17f958d2ee523a2206206994597c13d831ec7')).toBeUndefined();
    expect(currencyOfToken(1, '0x0000000000000000000000000000000000000000')).toBeUndefined();
  });

  it('lists the spec currencies and balance keys', () => {
    expect([...CURRENCIES].sort()).toEqual([...BALANCE_CURRENCIES].sort());
    expect(TOKEN_CURRENCIES).not.toContain('ETH');
    expect(CHAIN_IDS).toEqual([1, 137, 56, 250]);
  });
});

describe('chains', () => {
  it('reads a chain id in whatever form the wallet reports it', () => {
    expect(toChainId(1)).toBe(1);
    expect(toChainId('0x1')).toBe(1);
    expect(toChainId(1n)).toBe(1);
    expect(toChainId(56)).toBe(56);
    expect(toChainId('banana')).toBeUndefined();
    expect(toChainId('0x89')).toBe(137);
    expect(toChainId(5)).toBeUndefined();
  });

  it('links transactions to the chain explorer', () => {
    expect(explorerTxUrl(1, '0xabc')).toBe('https://etherscan.io/tx/0xabc');
    expect(explorerTxUrl(56, '0xabc')).toBe('https://bscscan.com/tx/0xabc');
  });
});

describe('shortAddress', () => {
  it('shows the first 6 and last 6 characters', () => {
    expect(shortAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toBe('0xf39F...b92266');
    expect(shortAddress('0x1234')).toBe('0x1234');
  });
});

describe('first-load weight', () => {
  it('keeps ethers out of the main entry: only the wallet entry imports it', () => {
    const entry = readFileSync(join(__dirname, 'index.ts'), 'utf8');
    const modules = [...entry.matchAll(/from '\.\/(\w+)'/g)].map((m) => m[1]);
    expect(modules).not.toContain('wallet');
    for (const name of modules) {
      const source = readFileSync(join(__dirname, `${name}.ts`), 'utf8');
      expect(source).not.toMatch(/from 'ethers'|require\('ethers'\)|from 'node:/);
    }
  });
});
