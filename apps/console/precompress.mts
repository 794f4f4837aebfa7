import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|css|svg|html)$/;
const gzipped = promisify(gzip);
const brotlied = promisify(brotliCompress);

/**
 * Writes `name.gz` and `name.br` beside each text asset once the bundle is on disk, at the
 * highest levels (done once per build, not per request); the API answers them by Accept-Encoding.
 */
export function precompress(assetsDir: string): Plugin {
  return {
    name: 'tps-precompress',
    apply: 'build',
    async writeBundle() {
      const names = (await readdir(assetsDir)).filter((name) => COMPRESSIBLE.test(name));
      await Promise.all(
        names.map(async (name) => {
          const bytes = await readFile(join(assetsDir, name));
          await writeFile(join(assetsDir, `${name}.gz`), await gzipped(bytes, { level: 9 }));
          await writeFile(
            join(assetsDir, `${name}.br`),
            await brotlied(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
          );
        }),
      );
    },
  };
}
