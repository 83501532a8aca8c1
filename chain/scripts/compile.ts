// Rewrites chain/artifacts/LocalToken.json from chain/contracts/LocalToken.sol.
import { writeFileSync } from 'node:fs';
import { ARTIFACT_PATH, compileToken } from '../src/compile';

const artifact = compileToken();
writeFileSync(ARTIFACT_PATH, `${JSON.stringify(artifact, null, 2)}\n`);
console.log(`wrote ${ARTIFACT_PATH} (${(artifact.deployedBytecode.length - 2) / 2} bytes of runtime code)`);
