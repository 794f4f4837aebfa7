import { randomBytes } from 'node:crypto';
import { SecretKeyring, UnknownSecretKeyError, sealedKeyId } from './secret-keyring';

const key = (id: string) => ({ id, key: randomBytes(32) });

describe('SecretKeyring', () => {
  const k1 = key('k1');
  const k2 = key('k2');

  it('seals under the first key, with a fresh nonce each time, and opens what it sealed', () => {
    const keyring = new SecretKeyring([k1]);
    const sealed = keyring.seal('demo-secret-key', 'merchants.secret_key');
    expect(sealed).toMatch(/^v1:k1:[\w-]+:[\w-]+:[\w-]+$/);
    expect(sealed).not.toContain('demo-secret-key');
    expect(keyring.seal('demo-secret-key', 'merchants.secret_key')).not.toBe(sealed);
    expect(keyring.open(sealed, 'merchants.secret_key')).toBe('demo-secret-key');
  });

  it('opens under any key it holds, and says which key a value needs when it lacks it', () => {
    const old = new SecretKeyring([k1]).seal('s', 'p');
    const rotated = new SecretKeyring([k2, k1]);
    expect(rotated.open(old, 'p')).toBe('s');
    expect(rotated.isCurrent(old)).toBe(false);
    expect(rotated.isCurrent(rotated.seal('s', 'p'))).toBe(true);
    expect(() => new SecretKeyring([k2]).open(old, 'p')).toThrow(/sealed under key k1/);
  });

  it('fails a value under a key it lacks with an error naming that key, which no retry clears', () => {
    const old = new SecretKeyring([k1]).seal('s', 'p');
    const other = new SecretKeyring([k2]);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      let thrown: unknown;
      try {
        other.open(old, 'p');
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(UnknownSecretKeyError);
      expect((thrown as UnknownSecretKeyError).keyId).toBe('k1');
    }
    expect(sealedKeyId(old)).toBe('k1');
    expect(sealedKeyId('in clear')).toBeUndefined();
    expect(new SecretKeyring([k2, k1]).knownPrefixes()).toEqual(['v1:k2:', 'v1:k1:']);
  });

  it('does not open a value sealed for another column, or changed', () => {
    const keyring = new SecretKeyring([k1]);
    const sealed = keyring.seal('s', 'merchants.webhook_secret');
    expect(() => keyring.open(sealed, 'merchants.secret_key')).toThrow();
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`;
    expect(() => keyring.open(tampered, 'merchants.webhook_secret')).toThrow();
  });

  it('returns a value written before sealing as it is', () => {
    expect(new SecretKeyring([k1]).open('demo-secret-key', 'p')).toBe('demo-secret-key');
  });

  it('reads SECRETS_KEY: hex or base64 keys, the first sealing', () => {
    const keyring = SecretKeyring.parse(`new:${'a'.repeat(64)}, old:${randomBytes(32).toString('base64')}`);
    expect(keyring.writeKeyId).toBe('new');
  });
});
