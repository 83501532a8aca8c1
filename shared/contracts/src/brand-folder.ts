// Node only (not exported from the package's index): reads the brand folders under BRANDS_DIR and
// keeps them current. The shell's server and the API each hold one registry; a change to the folder
// is read again before the next request is answered, and a brand that fails its check keeps its
// last good version serving, with a log line that says why.
import { existsSync, readdirSync, readFileSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { BRAND_FILES, BRAND_LIMITS, checkBrand, type Brand, type BrandCheck, type BrandFiles, type BrandRegistry } from './brand';

export const DEFAULT_BRAND_ID = 'default';

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

export type LiveBrandRegistry = BrandRegistry & { close(): void; reload(): void };

/**
 * The brands of a folder, live: read at once (a start with no valid default brand throws), then
 * again on the first request after the folder changes. `log` receives one line per brand refused,
 * loaded or removed.
 */
export function openBrandRegistry(brandsDir: string, log: (line: string) => void = (l) => console.warn(l)): LiveBrandRegistry {
  const good = new Map<string, Brand>();
  const stamps = new Map<string, string>();
  let dirty = true;
  let brandsList: Brand[] = [];
  let fallback: Brand | undefined;

  const load = () => {
    dirty = false;
    const ids = existsSync(brandsDir) ? brandIds(brandsDir) : [];
    for (const id of [...good.keys()]) {
      if (!ids.includes(id)) {
        good.delete(id);
        stamps.delete(id);
        log(`[brands] ${id}: removed`);
      }
    }
    for (const id of ids) {
      const dir = join(brandsDir, id);
      const stamp = folderStamp(dir);
      if (stamps.get(id) === stamp) continue;
      stamps.set(id, stamp);
      const result = checkBrandFolder(dir, id);
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
    fallback = good.get(DEFAULT_BRAND_ID) ?? brandsList[0];
  };

  load();
  if (!fallback) throw new Error(`BRANDS_DIR ${brandsDir}: no valid brand (the folder needs at least one, and "${DEFAULT_BRAND_ID}" answers hosts no brand claims)`);

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
  // Without a watcher (some mounted file systems), every request checks the folder's stamps.
  const fresh = () => {
    if (dirty || !watcher) load();
  };

  return {
    get brands() {
      fresh();
      return brandsList;
    },
    get defaultBrand() {
      fresh();
      return fallback as Brand;
    },
    reload: load,
    close: () => watcher?.close(),
  };
}
