import { HDNodeWallet, Mnemonic, Wallet } from 'ethers';

/** The public test mnemonic (anvil's): its keys are known to everyone, so only the local chain uses them. */
const TEST_MNEMONIC = 'test test test test test test test test test test test junk';
/** The local pools' receiving addresses are m/44'/60'/0'/0/100..102 of it (see LOCAL_POOL_ADDRESSES). */
const LOCAL_POOL_INDEXES = [100, 101, 102];

/** The local treasury (yield) address: m/44'/60'/0'/0/103 (chain's LOCAL_TREASURY), funded at start. */
const LOCAL_TREASURY_INDEX = 103;

let local: string[] | null = null;
/** Key `i` of the public test mnemonic (the local stack's addresses). */
export const localKey = (i: number) => HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(TEST_MNEMONIC), `m/44'/60'/0'/0/${i}`).privateKey;

/** The local stack's hot wallet keys: the keys of the local pools' receiving addresses. */
export function localHotWalletKeys(): string[] {
  local ??= LOCAL_POOL_INDEXES.map(localKey);
  return local;
}

/** The local stack's treasury key. */
export const localTreasuryKey = () => localKey(LOCAL_TREASURY_INDEX);

/** Hot wallets by lower-case address: a pool pays from the address it receives at. */
export function hotWallets(keys: readonly string[]): Map<string, Wallet> {
  return new Map(keys.map((k) => new Wallet(k)).map((w) => [w.address.toLowerCase(), w]));
}
