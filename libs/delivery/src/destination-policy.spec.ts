import {
  addressRefusal,
  guardedConnector,
  guardedLookup,
  isPublicAddress,
  refusalOf,
  SANDBOX_DESTINATIONS,
  systemInterfaceAddresses,
} from './destination-policy';

const PRODUCTION = { requireHttps: true, allowPrivate: false, refuseOwnAddresses: false };
const HOSTED = { requireHttps: false, allowPrivate: false, refuseOwnAddresses: true };
/** A host with a public address of its own besides loopback. */
const OWN_INTERFACES = () => ['127.0.0.1', '::1', '93.184.216.34', 'fe80::1%eth0', '2001:4860:4860::8888'];
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
    // IPv4-compatible (::/96), which ipaddr.js calls unicast, whatever IPv4 it carries.
    ['::7f00:1'],
    ['::127.0.0.1'],
    ['::808:808'],
    ['::8.8.8.8'],
    // Translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96, 64:ff9b:1::/48), 6to4 and Teredo.
    ['::ffff:0:7f00:1'],
    ['::ffff:0:808:808'],
    ['64:ff9b::7f00:1'],
    ['64:ff9b::808:808'],
    ['64:ff9b:1::7f00:1'],
    ['2002:7f00:1::'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['not-an-address'],
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([['8.8.8.8'], ['2606:4700:4700::1111'], ['::ffff:8.8.8.8']])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    'http://[::127.0.0.1]/hook',
    'http://[::7f00:1]/hook',
    'http://[::ffff:0:127.0.0.1]/hook',
    'http://[64:ff9b::127.0.0.1]/hook',
    'http://[64:ff9b::7f00:1]/hook',
  ])('refuses %s on the request, before anything resolves', async (url) => {
    expect(await refusalOf(url, HOSTED, resolvesTo('8.8.8.8'), OWN_INTERFACES)).toMatch(/non-public/);
  });

  it.each(['::7f00:1', '::127.0.0.1', '::ffff:0:7f00:1', '64:ff9b::7f00:1'])(
    'refuses the literal %s at connect time, opening no socket',
    async (host) => {
      const connect = guardedConnector(HOSTED, OWN_INTERFACES);
      const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
        connect({ hostname: host, host, protocol: 'http:', port: '80' }, (...answer) => resolve(answer[0])),
      );
      expect(error?.code).toBe('EADDRNOTPUBLIC');
    },
  );

  it("refuses the host's own addresses, public ones included, when the rules say so", async () => {
    expect(addressRefusal('93.184.216.34', HOSTED, OWN_INTERFACES)).toMatch(/own host/);
    expect(addressRefusal('::ffff:93.184.216.34', HOSTED, OWN_INTERFACES)).toMatch(/own host/);
    expect(addressRefusal('2001:4860:4860:0:0:0:0:8888', HOSTED, OWN_INTERFACES)).toMatch(/own host/);
    expect(addressRefusal('93.184.216.35', HOSTED, OWN_INTERFACES)).toBeUndefined();
    expect(addressRefusal('93.184.216.34', PRODUCTION, OWN_INTERFACES)).toBeUndefined();
    expect(await refusalOf('http://93.184.216.34:8080/hook', HOSTED, resolvesTo(), OWN_INTERFACES)).toMatch(
      /own host \(93\.184\.216\.34\)/,
    );
    expect(
      await refusalOf('http://pos.example.com/hook', HOSTED, resolvesTo('93.184.216.34'), OWN_INTERFACES),
    ).toMatch(/own host/);
    const lookup = guardedLookup(HOSTED, () => ['127.0.0.1']);
    expect(
      await new Promise<NodeJS.ErrnoException | null>((resolve) =>
        lookup('localhost', {}, (failure) => resolve(failure)),
      ),
    ).toMatchObject({ code: 'EADDRNOTPUBLIC' });
  });

  it('reads the interfaces of the host it runs on', () => {
    expect(systemInterfaceAddresses()).toContain('127.0.0.1');
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
    const rules = { requireHttps: true, allowPrivate: true, refuseOwnAddresses: false };
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
