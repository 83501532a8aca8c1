/**
 * The local stack's solvency signer: m/44'/60'/0'/0/104 of the public test mnemonic, no hot
 * wallet's and not the treasury's. A real deployment publishes its own (GET /api/v1/solvency/signer).
 */
export const LOCAL_SOLVENCY_SIGNER = '0x9c79357189d6aF261691ECF48de9A6bbF30438Fc';
