import type { Server } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './paths';

/** The repository's build scripts are plain ESM without types: their shape as the tests use them. */
export interface RemoteManifestEntry {
  name: string;
  entry: string;
  /** Filled in by the shell's server from the remote's routes.json; a brand's manifest has none. */
  routes?: { path: string; layout: 'auth' | 'inner'; private?: boolean }[];
  contract: string;
}
export interface RuntimeManifest {
  remotes: RemoteManifestEntry[];
}

interface ServeModule {
  serveRemote(o: { dir: string; port: number; host?: string }): Promise<Server>;
  serveShell(o: { dir: string; port: number; remotesDir: string; brands: unknown; production?: boolean }): Promise<Server>;
}
/** A brand as the registry hands it out (shared/contracts/src/brand.ts). */
export interface BrandRegistryLike {
  forHost(host: string | undefined): unknown;
  close(): void;
}
interface BrandPageModule {
  openBrands(shellDir: string, brandsDir: string, log?: (line: string) => void): Promise<BrandRegistryLike>;
}
interface ManifestModule {
  runtimeManifest(originOf: (name: string) => string): RuntimeManifest;
}
interface StackModule {
  startStack(o: {
    ports: Record<string, number>;
    dataDir: string;
    remotesDir: string;
    brandsDir: string;
    apiEnv: Record<string, string>;
    postgres?: boolean | { throwaway: boolean };
    replicas?: number;
    log: (line: string) => void;
  }): Promise<{ stop: () => Promise<void>; replicas: ApiReplica[]; databaseUrl?: string }>;
}
/** One API process of the stack (scripts/stack.mjs): `pid` leads its process group. */
export interface ApiReplica {
  name: string;
  pid: number;
  url: string;
  operatorUrl: string;
}

const load = <T>(file: string): Promise<T> => import(pathToFileURL(join(repoRoot, file)).href) as Promise<T>;

export const serveModule = () => load<ServeModule>('shell-server/serve.mjs');
export const brandPageModule = () => load<BrandPageModule>('shell-server/brand-page.mjs');
export const manifestModule = () => load<ManifestModule>('shared/build/manifest.mjs');
export const stackModule = () => load<StackModule>('scripts/stack.mjs');
