// Compiles the project's ERC-20 with the npm solc package. Start-up never compiles: it loads the
// committed artifact; `npm run compile -w chain` rewrites it after a change to the Solidity source,
// and a test checks the artifact still matches the source.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import solc from 'solc';

export const CONTRACT_NAME = 'LocalToken';
export const SOURCE_PATH = join(__dirname, '..', 'contracts', `${CONTRACT_NAME}.sol`);
export const ARTIFACT_PATH = join(__dirname, '..', 'artifacts', `${CONTRACT_NAME}.json`);

export interface StorageEntry {
  label: string;
  slot: string;
  offset: number;
  type: string;
}

export interface TokenArtifact {
  contractName: string;
  compiler: { version: string; settings: object };
  abi: unknown[];
  /** Creation code, for deploying with the constructor (tests). */
  bytecode: `0x${string}`;
  /** Runtime code, what anvil_setCode places at each token address. */
  deployedBytecode: `0x${string}`;
  /** Where name, symbol, decimals and minter live, so the installer does not hard-code slots. */
  storageLayout: StorageEntry[];
}

// Pinned so the same source always gives the same bytes; cancun is what anvil and mainnet run.
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: {
    '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'storageLayout'] },
  },
};

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, {
    abi: unknown[];
    evm: { bytecode: { object: string }; deployedBytecode: { object: string } };
    storageLayout: { storage: StorageEntry[] };
  }>>;
}

export function compileToken(source = readFileSync(SOURCE_PATH, 'utf8')): TokenArtifact {
  const fileName = `${CONTRACT_NAME}.sol`;
  const input = { language: 'Solidity', sources: { [fileName]: { content: source } }, settings: SETTINGS };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const contract = output.contracts[fileName]?.[CONTRACT_NAME];
  if (!contract) throw new Error(`solc produced no ${CONTRACT_NAME}`);
  return {
    contractName: CONTRACT_NAME,
    compiler: { version: solc.version(), settings: { optimizer: SETTINGS.optimizer, evmVersion: SETTINGS.evmVersion } },
    abi: contract.abi,
    bytecode: `0x${contract.evm.bytecode.object}`,
    deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
    storageLayout: contract.storageLayout.storage.map(({ label, slot, offset, type }) => ({ label, slot, offset, type })),
  };
}
