// @app/solvency: the proof-of-solvency format v1 and its verifier (docs/proof-of-solvency.md).
export {
  VERSION,
  CHAIN_ID,
  SUM_LIMIT,
  FormatError,
  utf8,
  u32be,
  u64be,
  u256be,
  concat,
  toHex,
  fromHex,
  uuidBytes,
  parseSum,
  subKey,
  leafHash,
  paddingLeafHash,
  parentNode,
  canonicalHeader,
  paddedLeafCount,
} from './format';
export type { Header, Proof, ProofPart, PathStep, Side, TreeNode } from './format';
export { StreamingTree, pathIndices } from './tree';
export type { NodeSink } from './tree';
export { verifyProof } from './verify';
export type { Check, CheckName, Verdict, VerifyOptions } from './verify';
export { LOCAL_SOLVENCY_SIGNER } from './local';
