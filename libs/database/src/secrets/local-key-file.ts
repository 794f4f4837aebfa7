import { createHash, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SecretKey } from './secret-keyring';

/**
 * A key kept in a file of its own, made on first use (mode 0600): the sandbox's key when no
 * SECRETS_KEY is set. Its id is `local-` and the start of its hash, so a process holding another
 * local file knows at once that a value is not under its key rather than failing to open it.
 * Two processes starting together make one file: each writes a file of its own and links it into
 * place, which only the first does; the other then reads the first one's key.
 */
export function localKeyFile(path: string): SecretKey {
  let key: Buffer;
  try {
    key = Buffer.from(readFileSync(path, 'utf8').trim(), 'hex');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dirname(path), { recursive: true });
    const made = randomBytes(32);
    const own = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(own, `${made.toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
    try {
      linkSync(own, path);
      key = made;
    } catch (raced) {
      if ((raced as NodeJS.ErrnoException).code !== 'EEXIST') throw raced;
      key = Buffer.from(readFileSync(path, 'utf8').trim(), 'hex');
    } finally {
      unlinkSync(own);
    }
  }
  if (key.length !== 32) throw new Error(`${path} holds no key of 64 hex digits`);
  return { id: `local-${createHash('sha256').update(key).digest('hex').slice(0, 8)}`, key };
}
