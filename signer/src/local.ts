// The local stack's custody addresses: keys of the public test mnemonic (anvil's), known to
// everyone, so only a local chain may use them. The deposit addresses are the pools' receiving
// addresses (m/44'/60'/0'/0/100..102, once the API's hot wallets); the treasury (yield) address is
// …/103 and the solvency key …/104 (once the API's); the float is …/105 and the operator's cold
// address …/106 (its key is not the signer's: cold means offline).
import { HDNodeWallet, Mnemonic } from 'ethers';
import { TOKENS } from '@app/web3';
import type { Caps } from './policy';

const TEST_MNEMONIC = 'test test test test test test test test test test test junk';
const key = (i: number) => HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(TEST_MNEMONIC), `m/44'/60'/0'/0/${i}`).privateKey;

export const LOCAL_FLOAT_INDEX = 105;
export const LOCAL_COLD_INDEX = 106;
export const LOCAL_DEPOSIT_INDEXES = [100, 101, 102];
export const LOCAL_TREASURY_INDEX = 103;
export const LOCAL_SOLVENCY_INDEX = 104;

/** The keys the local signer holds. */
export const localKeys = () => ({
  float: key(LOCAL_FLOAT_INDEX),
  deposits: LOCAL_DEPOSIT_INDEXES.map(key),
  treasury: key(LOCAL_TREASURY_INDEX),
  solvency: key(LOCAL_SOLVENCY_INDEX),
});
/** The local cold address (lower case). */
export const localColdAddress = () => HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(TEST_MNEMONIC), `m/44'/60'/0'/0/${LOCAL_COLD_INDEX}`).address.toLowerCase();
/** Whether a key is one of the public test mnemonic's the local stack uses. */
export const isLocalKey = (k: string) => [LOCAL_FLOAT_INDEX, LOCAL_COLD_INDEX, LOCAL_TREASURY_INDEX, LOCAL_SOLVENCY_INDEX, ...LOCAL_DEPOSIT_INDEXES].some((i) => key(i).toLowerCase() === k.toLowerCase());

const units = (whole: bigint, decimals: number) => (whole * 10n ** BigInt(decimals)).toString();
/**
 * The local stack's caps: far above any test's payout, so the e2e and API tests pay; a real
 * deployment declares its own (SIGNER_CAPS).
 */
export const localCaps = (): Caps => ({
  ETH: { perTransaction: BigInt(units(100n, 18)), perDay: BigInt(units(100_000n, 18)) },
  ...Object.fromEntries(
    Object.entries(TOKENS[1]).map(([c, t]) => [c, { perTransaction: BigInt(units(1_000_000n, t!.decimals)), perDay: BigInt(units(1_000_000_000n, t!.decimals)) }]),
  ),
});

/**
 * The local treasury's caps: the payouts' (far above what the tests fund); a real deployment
 * declares its own (SIGNER_TREASURY_CAPS), sized to the interest it funds, not to principal.
 */
export const localTreasuryCaps = (): Caps => localCaps();
