import { ACCOUNT_ID_PREFIX, newMerchantId, newSecretKey, newSerials } from './account-identity';

/** Contract §11's serial rule (the route pipe imports NestJS, which jest cannot load). */
const SERIAL_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

describe('sandbox account identity', () => {
  it('makes merchant ids that fit the merchants table and never repeat', () => {
    const ids = Array.from({ length: 1000 }, newMerchantId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(new RegExp(`^${ACCOUNT_ID_PREFIX}[0-9a-f]{24}$`));
  });

  it('makes secret keys of 64 hex characters', () => {
    expect(newSecretKey()).toMatch(/^[0-9a-f]{64}$/);
    expect(newSecretKey()).not.toBe(newSecretKey());
  });

  it('makes the number of distinct serials asked for, each a valid serial', () => {
    const serials = newSerials(20);
    expect(new Set(serials).size).toBe(20);
    for (const serial of serials) expect(serial).toMatch(SERIAL_PATTERN);
  });
});
