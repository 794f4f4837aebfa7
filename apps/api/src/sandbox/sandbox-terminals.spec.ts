import { ContractError } from '@tps/domain';
import type { ControlRequest } from '@tps/link';
import type { MerchantEntity } from '../auth/merchant.entity';
import type { Capacity } from '../caps/capacity';
import type { ApiConfig } from '../config/api-config';
import type { TerminalLinks } from '../link/terminal-links';
import type { TerminalEntity } from '../terminals/terminal.entity';
import type { TerminalRepository } from '../terminals/terminal.repository';
import type { TerminalResolver } from '../terminals/terminal-resolver';
import type { RealClock } from './real-clock';
import { SandboxTerminals } from './sandbox-terminals';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined, Inject: () => () => undefined }));
// The collaborators are the fakes below; their modules (and what they load) are not needed.
jest.mock('../caps/capacity', () => ({ Capacity: class {} }));
jest.mock('../link/terminal-links', () => ({ TerminalLinks: class {} }));
jest.mock('../terminals/terminal.repository', () => ({ TerminalRepository: class {} }));
jest.mock('../terminals/terminal-resolver', () => ({ TerminalResolver: class {} }));

/** The stored terminals and what the simulator was told, in order. */
function sandbox(
  whileHosting: (stored: Map<string, TerminalEntity>) => void = () => undefined,
  simulatorLinked = true,
) {
  const stored = new Map<string, TerminalEntity>();
  const told: string[] = [];
  const terminals = {
    findBySerial: (serial: string) => Promise.resolve(stored.get(serial) ?? null),
    insert: (terminal: TerminalEntity) => {
      stored.set(terminal.serialNumber, terminal);
      return Promise.resolve('inserted' as const);
    },
  };
  const links = {
    host: (terminal: TerminalEntity) => {
      told.push(`host ${terminal.serialNumber}`);
      whileHosting(stored);
      return Promise.resolve();
    },
    control: (serial: string, request: ControlRequest) => {
      if (!simulatorLinked) return Promise.reject(new ContractError('TER-001', `${serial} unreachable`));
      if (request.type === 'remove') told.push(`remove ${request.serials.join(',')}`);
      return Promise.resolve({ serials: [] });
    },
    waitUp: () => Promise.resolve(),
    statesAnywhere: (list: TerminalEntity[]) =>
      Promise.resolve(new Map(list.map((t) => [t.serialNumber, 'up']))),
  };
  const capacity = { reserveTerminals: () => Promise.resolve(() => undefined) };
  const service = new SandboxTerminals(
    {} as ApiConfig,
    {} as TerminalResolver,
    terminals as unknown as TerminalRepository,
    links as unknown as TerminalLinks,
    {} as RealClock,
    capacity as unknown as Capacity,
  );
  return { service, stored, told };
}

const merchant = { merchantId: 'm_removed' } as MerchantEntity;

describe('SandboxTerminals.create', () => {
  it('hosts the new terminal and answers it', async () => {
    const { service, told } = sandbox();
    const record = await service.create(merchant, { serial: undefined }, 'exempt');
    expect(told).toEqual([`host ${record.serialNumber}`]);
    expect(record.link).toBe('up');
  });

  it('tells the simulator to drop a terminal whose account was removed while it was being hosted', async () => {
    // The removal committed after the insert, and its word to the simulator may have come first.
    const { service, stored, told } = sandbox((rows) => rows.clear());
    await expect(service.create(merchant, { serial: undefined }, 'exempt')).rejects.toMatchObject({
      code: 'AUTH-001',
    });
    expect(stored.size).toBe(0);
    expect(told).toHaveLength(2);
    const [hosted, removed] = told;
    expect(removed).toBe(hosted.replace('host', 'remove'));
  });

  it('answers 401 for a gone account even when the simulator cannot be told now', async () => {
    // It gets the fleet without the terminal when it links again (contract, "Delete").
    const { service } = sandbox((rows) => rows.clear(), false);
    await expect(service.create(merchant, { serial: undefined }, 'exempt')).rejects.toMatchObject({
      code: 'AUTH-001',
    });
  });

  it("leaves alone another account's terminal that took the freed serial meanwhile", async () => {
    const { service, told } = sandbox((rows) => {
      for (const [serial, row] of rows) rows.set(serial, { ...row, merchantId: 'm_other' });
    });
    await expect(service.create(merchant, { serial: undefined }, 'exempt')).rejects.toMatchObject({
      code: 'AUTH-001',
    });
    expect(told).toHaveLength(1);
  });
});
