import { sql } from 'drizzle-orm';
import { patterns, SUPPORTED_CHAIN_ID } from '@app/contracts';
import { ETH_DECIMALS, TOKENS, decimalsOf, parseUnits, type Currency } from '@app/web3';
import type { Db } from './client';
import * as t from './schema';

/**
 * Reference rows the product starts with. Idempotent: existing rows are left as they are, so an
 * operator's edits survive restarts. Token addresses are the main-net contracts; the local chain
 * issue replaces them with its own deployments.
 */
/** Decimals and token contracts come from the one token table (@app/web3), never a copy. */
const currencyRows = [
  { code: 'ETH', name: 'Ether', native: true, sort: 0, usdRate: '3000' },
  { code: 'USDT', name: 'Tether USD', native: false, sort: 1, usdRate: '1' },
  { code: 'USDC', name: 'USD Coin', native: false, sort: 2, usdRate: '1' },
  { code: 'BUSD', name: 'Binance USD', native: false, sort: 3, usdRate: '1' },
  { code: 'BNB', name: 'BNB', native: false, sort: 4, usdRate: '600' },
  { code: 'SOL', name: 'Solana', native: false, sort: 5, usdRate: '150' },
  { code: 'WAVES', name: 'Waves', native: false, sort: 6, usdRate: '1' },
].map((row) => ({ ...row, decimals: row.native ? ETH_DECIMALS : decimalsOf(row.code as Currency, SUPPORTED_CHAIN_ID)! }));

const addressRows = Object.entries(TOKENS).flatMap(([chainId, tokens]) =>
  Object.entries(tokens).map(([currency, token]) => ({ currency, chainId: Number(chainId), address: token!.address })),
);

const poolRows = [
  { name: 'stable', title: 'Stable pool', riskLevel: 'low', riskReason: "Loans in stablecoins backed by more collateral than they lend; the risks are a lending market failing or a stablecoin losing its peg to the dollar.", sort: 0, description: 'Stablecoins lent to over-collateralised lending markets.' },
  { name: 'coin', title: 'Coin pool', riskLevel: 'medium', riskReason: "Coins whose prices move: the pool earns in ETH, BNB and SOL, so its value in dollars rises and falls with them; staking adds the risk of a validator's penalty.", sort: 1, description: 'ETH and large coins staked and lent.' },
  { name: 'dex', title: 'DEX pool', riskLevel: 'high', riskReason: "Liquidity on exchanges loses against holding when prices diverge (impermanent loss), and each exchange's contracts can fail.", sort: 2, description: 'Liquidity provided to decentralised exchanges.' },
];

/** Each pool's starting APY, the rate its interest is paid at until the operator sets another (`apy set`). */
const startingApy = [
  { pool: 'stable', apy: '0.12' },
  { pool: 'coin', apy: '0.18' },
  { pool: 'dex', apy: '0.26' },
];

/** The pools' titles and strategy texts in Russian (English is in poolRows). */
const poolTextRows = [
  { pool: 'stable', lang: 'ru', title: 'Стабильный пул', description: 'Стейблкоины, выданные в долг на рынках кредитования с избыточным залогом.', riskReason: 'Займы в стейблкоинах под залог больше суммы займа; риски — сбой рынка кредитования или потеря стейблкоином привязки к доллару.' },
  { pool: 'coin', lang: 'ru', title: 'Пул монет', description: 'ETH и крупные монеты в стейкинге и в займах.', riskReason: 'Цены монет меняются: пул приносит доход в ETH, BNB и SOL, и его стоимость в долларах растёт и падает вместе с ними; стейкинг добавляет риск штрафа валидатора.' },
  { pool: 'dex', lang: 'ru', title: 'DEX-пул', description: 'Ликвидность, предоставленная децентрализованным биржам.', riskReason: 'Ликвидность на биржах проигрывает простому хранению при расхождении цен (непостоянные потери), а контракты каждой биржи могут дать сбой.' },
];

const assetRows = [
  { pool: 'stable', currency: 'USDT', shareBps: 4000 },
  { pool: 'stable', currency: 'USDC', shareBps: 4000 },
  { pool: 'stable', currency: 'BUSD', shareBps: 2000 },
  { pool: 'coin', currency: 'ETH', shareBps: 6000 },
  { pool: 'coin', currency: 'BNB', shareBps: 2500 },
  { pool: 'coin', currency: 'SOL', shareBps: 1500 },
  { pool: 'dex', currency: 'ETH', shareBps: 5000 },
  { pool: 'dex', currency: 'USDT', shareBps: 3000 },
  { pool: 'dex', currency: 'WAVES', shareBps: 2000 },
];

const faqRows = [
  { id: 1, lang: 'en', sort: 1, question: 'What is a pool?', answer: 'A pool invests deposits in one strategy: stable, coin or dex. Interest compounds once a day.' },
  { id: 2, lang: 'en', sort: 2, question: 'How do I deposit?', answer: 'Connect your wallet on network 1, pick a pool and a currency and confirm the transaction in the wallet.' },
  { id: 3, lang: 'en', sort: 3, question: 'How do referral rewards work?', answer: 'Invite friends with your link and earn up to 18% additional rewards over several levels.' },
  { id: 4, lang: 'ru', sort: 1, question: 'Что такое пул?', answer: 'Пул вкладывает депозиты в одну стратегию: стабильную, монетную или биржевую (DEX). Проценты начисляются раз в день.' },
  { id: 5, lang: 'ru', sort: 2, question: 'Как сделать депозит?', answer: 'Подключите кошелёк в сети 1, выберите пул и валюту и подтвердите транзакцию в кошельке.' },
  { id: 6, lang: 'ru', sort: 3, question: 'Как работают реферальные награды?', answer: 'Приглашайте друзей по своей ссылке и получайте до 18% дополнительных наград на нескольких уровнях.' },
];

const daoValueRows = [
  { key: 'quorumBps', value: '2000' },
  { key: 'votingPeriodDays', value: '7' },
  { key: 'proposalThreshold', value: '1000000000000000000000' },
  { key: 'governanceToken', value: 'IPT' },
];

const regexpValue = Object.fromEntries(Object.entries(patterns).map(([k, re]) => [k, re.source]));

/**
 * Local stack only: where each pool receives each currency on the local chain (it has mainnet's id). Addresses
 * of the public test mnemonic at m/44'/60'/0'/0/100..102: not the dev accounts that deposit, and
 * never to be used on a real network (anyone has the keys), hence never seeded in production.
 */
export const LOCAL_POOL_ADDRESSES = {
  stable: '0x8c3229ec621644789d7f61faa82c6d0e5f97d43d',
  coin: '0x9586a4833970847aef259ad5bfb7aa8901ddf746',
  dex: '0x0e9971c0005d91336c1441b8f03c1c4fe5fb4584',
} as const;
const poolCurrencies = {
  stable: ['USDT', 'USDC', 'BUSD'],
  coin: ['ETH', 'BNB', 'SOL', 'WAVES'],
  dex: ['ETH', 'USDT', 'USDC', 'BUSD', 'BNB', 'SOL', 'WAVES'],
} as const;
const poolAddressRows = Object.entries(poolCurrencies).flatMap(([pool, list]) =>
  list.map((currency) => ({ pool, currency, chainId: SUPPORTED_CHAIN_ID, address: LOCAL_POOL_ADDRESSES[pool as keyof typeof LOCAL_POOL_ADDRESSES] })),
);
/** The local price source ('local'): fixed USD prices so estimates work without a feed. */
const localPriceRows = [
  { currency: 'ETH', usd: '3000' },
  { currency: 'USDT', usd: '1' },
  { currency: 'USDC', usd: '1' },
  { currency: 'BUSD', usd: '1' },
  { currency: 'BNB', usd: '600' },
  { currency: 'SOL', usd: '150' },
  { currency: 'WAVES', usd: '1.25' },
].map((r) => ({ ...r, source: 'local' }));

/**
 * Local stack only: each currency's payout rule, so its withdrawals are open (a currency without a
 * rule refuses them: src/payouts/settings.ts). The minimums cover a payout's gas on the local chain
 * at the local prices with room to spare; production's are the operator's (`payouts set`).
 */
const localMinimums: Record<Currency, string> = { ETH: '0.001', USDT: '1', USDC: '1', BUSD: '1', BNB: '0.001', SOL: '0.01', WAVES: '1' };
const localPayoutRules = Object.fromEntries(
  Object.entries(localMinimums).map(([currency, whole]) => [
    currency,
    { fee: '0', minimum: String(parseUnits(whole, decimalsOf(currency as Currency, SUPPORTED_CHAIN_ID)!)), approvalThreshold: null, dualApprovalThreshold: null },
  ]),
);

export type SeedOptions = { /** Seed the local chain's pool addresses and prices (never in production). */ localChain?: boolean };

export async function seed(db: Db, opts: SeedOptions = {}): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(t.currencies).values(currencyRows).onConflictDoNothing();
    await tx.insert(t.currencyAddresses).values(addressRows).onConflictDoNothing();
    await tx.insert(t.pools).values(poolRows).onConflictDoNothing();
    await tx.insert(t.poolAssets).values(assetRows).onConflictDoNothing();
    await tx.insert(t.poolTexts).values(poolTextRows).onConflictDoNothing();
    // A pool without an APY history starts with its starting APY; `pool_apy` is the one source of a pool's APY.
    for (const { pool, apy } of startingApy) {
      await tx.execute(sql`insert into pool_apy (pool, effective_from, apy, set_by)
        select ${pool}, date '2020-01-01', ${apy}::numeric, 'seed' where not exists (select 1 from pool_apy a where a.pool = ${pool})`);
    }
    await tx.insert(t.faq).values(faqRows).onConflictDoNothing();
    await tx.insert(t.daoValues).values(daoValueRows).onConflictDoNothing();
    await tx.insert(t.systemSettings).values({ key: 'regExp', value: regexpValue }).onConflictDoNothing();
    if (opts.localChain) {
      await tx.insert(t.poolAddresses).values(poolAddressRows).onConflictDoNothing();
      await tx.insert(t.coinPrices).values(localPriceRows).onConflictDoNothing();
      // A currency already ruled keeps its rule (the operator's); one with none gets the local rule.
      await tx
        .insert(t.systemSettings)
        .values({ key: 'payouts', value: localPayoutRules })
        .onConflictDoUpdate({ target: t.systemSettings.key, set: { value: sql`excluded.value || ${t.systemSettings.value}` } });
    }
  });
}
