import { PrefetchedTerminals } from './prefetched-terminals';
import type { TerminalEntity } from './terminal.entity';
import type { TerminalOwner } from './terminal-owner';
import type { TerminalRepository } from './terminal.repository';
import { TerminalResolver } from './terminal-resolver';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined }));
jest.mock('@nestjs/typeorm', () => ({ InjectRepository: () => () => undefined }));

const merchant = (): TerminalOwner => ({ merchantId: 'm-1', boundTerminalSerial: 'SIM0000001' });
const stored = { serialNumber: 'SIM0000002', merchantId: 'm-1' } as TerminalEntity;

describe('TerminalResolver', () => {
  let reads: string[];
  let prefetched: PrefetchedTerminals;
  let resolver: TerminalResolver;

  beforeEach(() => {
    reads = [];
    const terminals = {
      findForMerchant: (_merchantId: string, serial: string) => {
        reads.push(serial);
        return Promise.resolve(serial === stored.serialNumber ? stored : null);
      },
    } as unknown as TerminalRepository;
    prefetched = new PrefetchedTerminals();
    resolver = new TerminalResolver(terminals, prefetched);
  });

  it('takes the terminal authentication read with the merchant, without reading it again', async () => {
    const owner = merchant();
    const read = { ...stored };
    prefetched.remember(owner, 'SIM0000002', read);
    expect(await resolver.resolve(owner, 'SIM0000002')).toBe(read);
    expect(reads).toEqual([]);
  });

  it('refuses a serial authentication found no terminal for, without reading it again', async () => {
    const owner = merchant();
    prefetched.remember(owner, 'SIM0000002', null);
    await expect(resolver.resolve(owner, 'SIM0000002')).rejects.toMatchObject({ code: 'NF-002' });
    expect(reads).toEqual([]);
  });

  it('reads the store for another serial, for another request, and for a second lookup', async () => {
    const owner = merchant();
    prefetched.remember(owner, 'SIM0000001', null);
    expect(await resolver.resolve(owner, 'SIM0000002')).toBe(stored);
    expect(await resolver.resolve(merchant(), 'SIM0000002')).toBe(stored);
    prefetched.remember(owner, 'SIM0000002', stored);
    await resolver.resolve(owner, 'SIM0000002');
    await resolver.resolve(owner, 'SIM0000002');
    expect(reads).toEqual(['SIM0000002', 'SIM0000002', 'SIM0000002']);
  });
});
