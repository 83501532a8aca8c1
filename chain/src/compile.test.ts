import { readFileSync } from 'node:fs';
import { ARTIFACT_PATH, compileToken } from './compile';

describe('the committed LocalToken artifact', () => {
  it('is what solc makes of the Solidity source today', () => {
    const committed = JSON.parse(readFileSync(ARTIFACT_PATH, 'utf8')) as ReturnType<typeof compileToken>;
    const fresh = compileToken();
    // If this fails, the source changed without `npm run compile -w chain`.
    expect(fresh.deployedBytecode).toBe(committed.deployedBytecode);
    expect(fresh.bytecode).toBe(committed.bytecode);
    expect(fresh.abi).toEqual(committed.abi);
    expect(fresh.storageLayout).toEqual(committed.storageLayout);
  });
});
