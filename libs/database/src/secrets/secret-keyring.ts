import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** What every sealed value begins with: the format's version, then the key id. */
export const SEALED_PREFIX = 'v1:';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const KEY_ID = /^[A-Za-z0-9-]{1,32}$/;
/**
 * Opened values kept in memory, each under its sealed text: a signed request reads its merchant's
 * secret on every call, and this makes that a map lookup, not a decryption. A sealed text stands
 * for one value only, so an entry never goes stale; the oldest is dropped past the bound.
 */
const OPENED_CACHE_SIZE = 10_000;

/**
 * A stored value sealed under a key this process does not hold: a database moved to a process with
 * another SECRETS_KEY, or a key dropped before its rows were re-sealed. Not the caller's error, and
 * no retry helps: an operator must add the key (contract, "Secrets at rest").
 */
export class UnknownSecretKeyError extends Error {
  constructor(readonly keyId: string) {
    super(`a secret is sealed under key ${keyId}, which SECRETS_KEY does not hold`);
    this.name = 'UnknownSecretKeyError';
  }
}

export interface SecretKey {
  id: string;
  key: Buffer;
}

/**
 * Secrets at rest (contract, "Secrets at rest"): AES-256-GCM under keys named by an id. Values are
 * sealed as `v1:<key id>:<iv>:<tag>:<ciphertext>` (base64url), always with the first key; any of
 * the keys opens them, so a new key can be put first while rows sealed under the old one are
 * re-sealed in the background. `purpose` is the authenticated data: a value sealed for one column
 * does not open as another's.
 */
export class SecretKeyring {
  private readonly keys = new Map<string, Buffer>();
  private readonly opened = new Map<string, string>();

  constructor(keys: readonly SecretKey[]) {
    if (keys.length === 0) throw new Error('a secret keyring needs at least one key');
    for (const { id, key } of keys) {
      if (!KEY_ID.test(id)) throw new Error(`key id "${id}": 1 to 32 of A-Z a-z 0-9 -`);
      if (key.length !== KEY_BYTES) throw new Error(`key ${id}: must be ${KEY_BYTES} bytes`);
      if (this.keys.has(id)) throw new Error(`key id ${id} is given twice`);
      this.keys.set(id, key);
    }
    this.writeKeyId = keys[0].id;
  }

  /** The key that seals every new value. */
  readonly writeKeyId: string;

  /**
   * `SECRETS_KEY`: `<id>:<key>` entries separated by commas, the first one sealing; each key is
   * 64 hex digits or the base64 of 32 bytes.
   */
  static parse(text: string): SecretKeyring {
    const entries = text
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    return new SecretKeyring(
      entries.map((entry) => {
        const colon = entry.indexOf(':');
        if (colon <= 0) throw new Error('SECRETS_KEY: each key is written <id>:<key>');
        const id = entry.slice(0, colon);
        const written = entry.slice(colon + 1);
        const key = /^[0-9a-fA-F]{64}$/.test(written)
          ? Buffer.from(written, 'hex')
          : Buffer.from(written, 'base64');
        if (key.length !== KEY_BYTES) {
          throw new Error(`SECRETS_KEY: key ${id} must be 64 hex digits or the base64 of 32 bytes`);
        }
        return { id, key };
      }),
    );
  }

  seal(value: string, purpose: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keyOf(this.writeKeyId), iv);
    cipher.setAAD(Buffer.from(purpose, 'utf8'));
    const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url'));
    return `${SEALED_PREFIX}${this.writeKeyId}:${parts.join(':')}`;
  }

  /**
   * The value a stored text stands for. A text that is not sealed is returned as it is: a row
   * written before secrets were sealed, until the start-up pass seals it.
   */
  open(stored: string, purpose: string): string {
    if (!isSealed(stored)) return stored;
    const cacheKey = `${purpose}\n${stored}`;
    const known = this.opened.get(cacheKey);
    if (known !== undefined) return known;
    const [, id, iv, tag, body] = stored.split(':');
    if (body === undefined) throw new Error('a sealed secret is cut short');
    const decipher = createDecipheriv('aes-256-gcm', this.keyOf(id), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(purpose, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const value = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
    if (this.opened.size >= OPENED_CACHE_SIZE) {
      const oldest = this.opened.keys().next().value;
      if (oldest !== undefined) this.opened.delete(oldest);
    }
    this.opened.set(cacheKey, value);
    return value;
  }

  /** True when the stored text is sealed under the key that seals now: nothing to re-seal. */
  isCurrent(stored: string): boolean {
    return stored.startsWith(this.currentPrefix());
  }

  /** How every value sealed under the current key begins. */
  currentPrefix(): string {
    return `${SEALED_PREFIX}${this.writeKeyId}:`;
  }

  /** How a value sealed under each key this keyring holds begins. */
  knownPrefixes(): string[] {
    return [...this.keys.keys()].map((id) => `${SEALED_PREFIX}${id}:`);
  }

  private keyOf(id: string): Buffer {
    const key = this.keys.get(id);
    if (key === undefined) throw new UnknownSecretKeyError(id);
    return key;
  }
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(SEALED_PREFIX);
}

/** The id of the key a sealed value names, or undefined for a value in clear. */
export function sealedKeyId(stored: string): string | undefined {
  return isSealed(stored) ? stored.slice(SEALED_PREFIX.length).split(':', 1)[0] : undefined;
}
