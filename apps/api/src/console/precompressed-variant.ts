import { existsSync } from 'node:fs';

/**
 * The encodings the console's build writes beside each text asset (apps/console/precompress.mts),
 * smallest first: browsers list `gzip` before `br` at equal weight, so the service's order decides.
 */
const VARIANTS = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

/**
 * The precompressed file to send for `file`: the first of ours the request accepts (`accepts`
 * tells, weighing `q` values: `q=0` refuses) that the build wrote; undefined sends the file as it is.
 */
export function precompressedVariant(
  file: string,
  accepts: (encoding: string) => boolean,
): { file: string; encoding: 'br' | 'gzip' } | undefined {
  for (const { encoding, suffix } of VARIANTS) {
    if (accepts(encoding) && existsSync(`${file}${suffix}`)) return { file: `${file}${suffix}`, encoding };
  }
  return undefined;
}
