import { HDNodeWallet, Mnemonic } from 'ethers';

/** The public test mnemonic (anvil's): its keys are known to everyone, so only the local chain uses them. */
const TEST_MNEMONIC = 'test test test test test test test test test test test junk';

/** The local treasury (yield) address: m/44'/60'/0'/0/103 (chain's LOCAL_TREASURY), funded at start. */
const LOCAL_TREASURY_INDEX = 103;

/**
 * Key `i` of the public test mnemonic (the local stack's addresses). The API holds none of the keys
 * that pay or sweep: those (…/100..102 the deposit addresses, …/105 the float) are the signer's.
 */
export const localKey = (i: number) => HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(TEST_MNEMONIC), `m/44'/60'/0'/0/${i}`).privateKey;

/** The local stack's treasury key. */
export const localTreasuryKey = () => localKey(LOCAL_TREASURY_INDEX);
