// One jest run for every workspace. TypeScript is compiled by swc (ts-jest does not work with
// the newest TypeScript, and swc is much faster). React tests opt into jsdom with a docblock.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

export default {
  testEnvironment: 'node',
  roots: ['<rootDir>'],
  testMatch: ['**/src/**/*.test.ts', '**/src/**/*.test.tsx', '**/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '<rootDir>/e2e/'],
  transform: { '^.+\\.(t|j|mj|cj)sx?$': swc },
  // Some dependencies ship ES modules only; let swc turn them into CommonJS for jest.
  transformIgnorePatterns: ['/node_modules/(?!(jose|@electric-sql|siwe|@noble|@spruceid|@fastify/cookie|cookie|content-disposition)/)'],
  setupFiles: ['<rootDir>/jest.setup.mjs'],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
  testTimeout: 30000,
};
