// Node only (not exported from the package's index): reads the brand folders under BRANDS_DIR and
// keeps them current. The shell's server and the API each hold one registry; a change to the folder
// is read again before the next request is answered, and a brand that fails its check keeps its
// last good version serving, with a log line that says why.
import { existsSync, readdirSync, readFileSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { BRAND_FILES, BRAND_LIMITS, brandOrDefault, checkBrand, type Brand, type BrandCheck, type BrandFiles, type BrandRegistry } from './brand';

export const DEFAULT_BRAND_ID = 'default';
const STAMP_CHECK_MS = 1000;

/** Reads one brand folder's files (a file far above its limit is read as its first bytes, so the check reports its size). */
export function readBrandFiles(dir: string): BrandFiles {
  const files: BrandFiles = {};
  for (const name of [...BRAND_FILES.required, ...BRAND_FILES.optional]) {
    const file = join(dir, name);
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    const limit = BRAND_LIMITS[name] ?? Infinity;
    files[name] = text.length > limit * 4 ? text.slice(0, limit * 4) : text;
  }
  return files;
}

export function checkBrandFolder(dir: string, id: string): BrandCheck {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return { ok: false, problems: [`${dir}: not a folder`] };
  return checkBrand(id, readBrandFiles(dir));
}

/** The brand folders under a folder of brands (hidden ones skipped). */
function brandIds(brandsDir: string): string[] {
  return readdirSync(brandsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
    .map((d) => d.name)
    .sort();
}

/** A signature of a brand folder's state: names, sizes and times, so an unchanged folder is not read again. */
function folderStamp(dir: string): string {
  try {
    return readdirSync(dir)
      .sort()
      .map((name) => {
        const s = statSync(join(dir, name));
        return `${name}:${s.size}:${s.mtimeMs}`;
      })
      .join('|');
  } catch {
    return '';
  }
}

/** `forHost` lets the shell's plain-JavaScript server pick a brand without its own copy of the rule. */
export type LiveBrandRegistry = BrandRegistry & {
  forHost(hostHeader: string | undefined): Brand;
  /** Hosts of brands refused because `hostAllowed` refused them (the API refuses loopback hosts in production). */
  readonly refusedHosts: readonly string[];
  close(): void;
  reload(): void;
};

/**
 * The brands of a folder, live: read at once (a start with no valid default brand throws), then
 * again on the first request after the folder changes. `log` receives one line per brand refused,
 * loaded or removed. A brand claiming a host `hostAllowed` refuses is refused as a whole.
 */
export function openBrandRegistry(
  brandsDir: string,
  log: (line: string) => void = (l) => console.warn(l),
  hostAllowed: (host: string) => boolean = () => true,
): LiveBrandRegistry {
  const refusedHosts = new Map<string, string[]>();
  const refusals = new Map<string, string[]>();
  const good = new Map<string, Brand>();
  const stamps = new Map<string, string>();
  let dirty = true;
  let checkedAt = 0;
  let brandsList: Brand[] = [];
  let fallback: Brand | undefined;

  const load = () => {
    dirty = false;
    checkedAt = Date.now();
    const ids = existsSync(brandsDir) ? brandIds(brandsDir) : [];
    for (const id of [...good.keys()]) {
      if (!ids.includes(id)) {
        good.delete(id);
        stamps.delete(id);
        refusedHosts.delete(id);
        log(`[brands] ${id}: removed`);
      }
    }
    for (const id of ids) {
      const dir = join(brandsDir, id);
      const stamp = folderStamp(dir);
      if (stamps.get(id) === stamp) continue;
      stamps.set(id, stamp);
      let result = checkBrandFolder(dir, id);
      const badHosts = result.ok ? result.brand.hosts.filter((h) => !hostAllowed(h)) : [];
      if (badHosts.length > 0) result = { ok: false, problems: [`brand.json: hosts: not allowed here: ${badHosts.join(', ')}`] };
      refusedHosts.set(id, badHosts);
      refusals.set(id, result.ok ? [] : result.problems);
      if (result.ok) {
        const first = !good.has(id);
        good.set(id, result.brand);
        log(`[brands] ${id}: ${first ? 'loaded' : 'reloaded'} (${result.brand.hosts.join(', ')})`);
      } else {
        log(`[brands] ${id}: refused, ${good.has(id) ? 'the last good version keeps serving' : 'not served'}: ${result.problems.join('; ')}`);
      }
    }
    // A host claimed by two brands goes to the first by folder name: the order is stable.
    brandsList = [...good.values()].sort((a, b) => a.id.localeCompare(b.id));
    fallback = good.get(DEFAULT_BRAND_ID) ?? brandsList[0] ?? fallback;
  };

  load();
  if (!fallback) {
    const why = [...refusals].filter(([, p]) => p.length > 0).map(([id, p]) => `${id}: ${p.join('; ')}`);
    throw new Error(`no valid brand (the folder needs at least one, and "${DEFAULT_BRAND_ID}" answers hosts no brand claims)${why.length ? `: ${why.join(' | ')}` : ''}`);
  }

  let watcher: FSWatcher | undefined;
  try {
    // Recursive watching covers an edit inside a brand's folder (Linux needs Node 20+).
    watcher = watch(brandsDir, { recursive: true, persistent: false }, () => {
      dirty = true;
    });
    watcher.on('error', () => {
      dirty = true;
    });
  } catch {
    watcher = undefined;
  }
  // The watcher's event can come a moment after the write, and some mounted file systems send
  // none: the folder's stamps are also compared at most once a second (a few stat calls).
  const fresh = () => {
    if (dirty || !watcher || Date.now() - checkedAt > STAMP_CHECK_MS) load();
  };
  const registry: LiveBrandRegistry = {
    get brands() {
      fresh();
      return brandsList;
    },
    get defaultBrand() {
      fresh();
      return fallback as Brand;
    },
    forHost: (hostHeader) => brandOrDefault(registry, hostHeader),
    get refusedHosts() {
      return [...refusedHosts.values()].flat();
    },
    reload: load,
    close: () => watcher?.close(),
  };
  return registry;
}

