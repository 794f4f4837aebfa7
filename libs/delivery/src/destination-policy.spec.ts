import { guardedLookup, isPublicAddress, refusalOf, SANDBOX_DESTINATIONS } from './destination-policy';

const PRODUCTION = { requireHttps: true, allowPrivate: false };
const resolvesTo =
  (...addresses: string[]) =>
  async (): Promise<string[]> =>
    addresses;

describe('destination policy', () => {
  it.each([
    ['127.0.0.1'],
    ['10.0.0.8'],
    ['172.16.4.1'],
    ['192.168.1.10'],
    ['169.254.169.254'],
    ['100.64.0.1'],
    ['0.0.0.0'],
    ['::1'],
    ['fe80::1'],
    ['fd12::1'],
    ['::ffff:127.0.0.1'],
    ['::ffff:10.0.0.1'],
    ['not-an-address'],
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([['8.8.8.8'], ['2606:4700:4700::1111'], ['::ffff:8.8.8.8']])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('lets the sandbox deliver to any http or https URL, private ones included', async () => {
    expect(await refusalOf('http://127.0.0.1:9000/hook', SANDBOX_DESTINATIONS)).toBeNull();
    expect(await refusalOf('ftp://example.com/x', SANDBOX_DESTINATIONS)).toBe('must use http or https');
  });

  it('demands https in production', async () => {
    expect(await refusalOf('http://pos.example.com/hook', PRODUCTION, resolvesTo('8.8.8.8'))).toBe(
      'must use https',
    );
    expect(await refusalOf('https://pos.example.com/hook', PRODUCTION, resolvesTo('8.8.8.8'))).toBeNull();
  });

  it('refuses a literal private address without resolving anything', async () => {
    const resolveAll = jest.fn(resolvesTo('8.8.8.8'));
    expect(await refusalOf('https://[::1]/hook', PRODUCTION, resolveAll)).toMatch(
      /non-public address \(::1\)/,
    );
    expect(await refusalOf('https://10.1.1.1/hook', PRODUCTION, resolveAll)).toMatch(/non-public/);
    expect(resolveAll).not.toHaveBeenCalled();
  });

  it('refuses a name when any of its addresses is private', async () => {
    expect(
      await refusalOf('https://pos.example.com/hook', PRODUCTION, resolvesTo('8.8.8.8', '192.168.0.2')),
    ).toMatch(/192\.168\.0\.2/);
  });

  it('refuses a name that does not resolve', async () => {
    const failing = () => Promise.reject(new Error('ENOTFOUND'));
    expect(await refusalOf('https://nowhere.invalid/hook', PRODUCTION, failing)).toBe(
      'host nowhere.invalid does not resolve',
    );
  });

  it('lets configuration allow private addresses while still demanding https', async () => {
    const rules = { requireHttps: true, allowPrivate: true };
    expect(await refusalOf('https://127.0.0.1/hook', rules)).toBeNull();
    expect(await refusalOf('http://127.0.0.1/hook', rules)).toBe('must use https');
  });

  it('refuses at connect time a name that resolves to loopback', async () => {
    const lookup = guardedLookup(PRODUCTION);
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      lookup('localhost', {}, (failure) => resolve(failure)),
    );
    expect(error?.code).toBe('EADDRNOTPUBLIC');
  });

  it('answers at connect time like dns.lookup when private addresses are allowed', async () => {
    const lookup = guardedLookup(SANDBOX_DESTINATIONS);
    const address = await new Promise<unknown>((resolve, reject) =>
      lookup('localhost', {}, (failure, found) => (failure ? reject(failure) : resolve(found))),
    );
    expect(typeof address).toBe('string');
  });
});
