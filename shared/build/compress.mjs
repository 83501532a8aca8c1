// Brotli and gzip copies of every text file a build emits, made once at build time so the static
// servers only pick one by the request's Accept-Encoding (sirv's `brotli`/`gzip` options).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export const TEXT_FILE = /\.(js|mjs|css|html|json|svg|txt|map)$/;
// Below this, the encoding headers cost about what compression saves.
const MIN_BYTES = 256;

/** Writes `<file>.br` and `<file>.gz` beside one file. */
export async function compressFile(file) {
  const source = await readFile(file);
  if (source.length < MIN_BYTES) return;
  const [br, gz] = await Promise.all([
    brotli(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length } }),
    gzipAsync(source, { level: 9 }),
  ]);
  await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
}

/** Compresses what the compilation wrote, after everything (the MF manifest too) is on disk. */
export class CompressAssetsPlugin {
  apply(compiler) {
    compiler.hooks.afterEmit.tapPromise('CompressAssetsPlugin', async (compilation) => {
      const outDir = compilation.outputOptions.path;
      const files = Object.keys(compilation.assets).filter((name) => TEXT_FILE.test(name));
      await Promise.all(files.map((name) => compressFile(join(outDir, name))));
    });
  }
}
