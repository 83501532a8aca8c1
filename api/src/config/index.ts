import path from 'node:path';
import * as z from 'zod/mini';
import { authConfig, authDocs, authEnv, authProblems, type AuthConfig } from './auth';
import { chainConfig, chainDocs, chainEnv, chainProblems, type ChainConfig } from './chain';
import { databaseConfig, databaseDocs, databaseEnv, databaseProblems, dataDirOf, type DatabaseConfig } from './database';
import { ConfigError, type ConfigDoc } from './fields';
import { mailConfig, mailDocs, mailEnv, mailProblems, type MailConfig } from './mail';
import { moneyConfig, moneyDocs, moneyEnv, moneyProblems, type MoneyConfig } from './money';
import { operatorConfig, operatorDocs, operatorEnv, operatorProblems, type OperatorConfig } from './operator';
import { solvencyConfig, solvencyDocs, solvencyEnv, solvencyProblems, type SolvencyConfig } from './solvency';
import { readBrands, serverConfig, serverDocs, serverEnv, serverProblems, type ServerConfig } from './server';
import '../zod-english';

// The configuration, composed of one slice per capability: each slice holds its variables, their
// rows of the README's table, what production refuses of them, and its part of AppConfig.
export { ARGON2_MIN } from './auth';
export { ConfigError, type ConfigDoc } from './fields';
export { isLoopbackHost } from './server';

/** The repository root: the default data folder lives there whatever the working directory is. */
export const repoRoot = path.resolve(__dirname, '../../..');

/** The environment, as read at start. Unknown variables are ignored; a bad value stops the start. */
export const envSchema = z.object({
  ...serverEnv.shape,
  ...databaseEnv.shape,
  ...authEnv.shape,
  ...mailEnv.shape,
  ...chainEnv.shape,
  ...moneyEnv.shape,
  ...operatorEnv.shape,
  ...solvencyEnv.shape,
});
export type Env = z.input<typeof envSchema>;
export type EnvValues = z.output<typeof envSchema>;

/** The rows of the configuration table in api/README.md, in its order. */
export const configDocs: ConfigDoc[] = [...serverDocs, ...databaseDocs, ...authDocs, ...mailDocs, ...chainDocs, ...moneyDocs, ...operatorDocs, ...solvencyDocs];

export type AppConfig = ServerConfig &
  DatabaseConfig &
  AuthConfig &
  MailConfig &
  ChainConfig &
  MoneyConfig &
  OperatorConfig &
  SolvencyConfig & {
    /** LOCAL_CHAIN=true: the test keys, the local pool addresses and prices, the fast defaults. */
    localChain: boolean;
    /** DATA_DIR: the local stack writes its own operators' credentials there. */
    dataDir: string;
  };

/** Reads the configuration from an environment; throws ConfigError with every problem listed. */
export function loadConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  // Empty variables count as unset (a compose file often passes VAR= ).
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) throw new ConfigError(`Invalid configuration:\n${z.prettifyError(parsed.error)}`);
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  // The fast defaults (one confirmation, no finality, the test keys, a future day accrued) only
  // where someone said the chain is the local one; every other environment gets the safe ones.
  const local = e.LOCAL_CHAIN && !production;
  const dataDir = dataDirOf(e, repoRoot);
  // The registry logs before the server's logger exists: straight to the console, unless silenced.
  const brands = readBrands(e.BRANDS_DIR, repoRoot, production, e.LOG_LEVEL === 'silent' ? () => undefined : undefined);
  // What production refuses to start with: each is a hole a security review found.
  const problems = production
    ? [
        ...serverProblems(e, brands),
        ...authProblems(e),
        ...mailProblems(e),
        ...chainProblems(e),
        ...moneyProblems(e),
        ...databaseProblems(e),
        ...operatorProblems(e),
      ]
    : [];
  problems.push(...solvencyProblems(e, production));
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `✖ ${p}`).join('\n')}`);

  return {
    ...serverConfig(e, brands),
    localChain: local,
    ...databaseConfig(e, dataDir),
    ...authConfig(e, dataDir),
    ...mailConfig(e),
    ...chainConfig(e, local),
    ...moneyConfig(e, local),
    ...operatorConfig(e),
    dataDir,
    ...solvencyConfig(),
  };
}

/** The configuration of a process's start: a bad one prints what is wrong and exits (code 2). */
export function configOrExit(source: Record<string, string | undefined> = process.env): AppConfig {
  try {
    return loadConfig(source);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
}
