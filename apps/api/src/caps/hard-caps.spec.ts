import 'reflect-metadata';
import { validateApiConfig } from '../config/api-config';
import { HOSTED_ADDRESS_CAPS, HOSTED_PENDING_DELIVERIES, hardCaps } from './hard-caps';

describe('hard caps (contract §22)', () => {
  it('per client address: hosted defaults, none in a local sandbox, each replaced by its setting', () => {
    expect(hardCaps(validateApiConfig({}), undefined)).toMatchObject({
      accountsPerHour: undefined,
      accountsAlive: undefined,
      conformanceRunsPerAddress: undefined,
    });
    expect(hardCaps(validateApiConfig({ HOSTED_MODE: 'true' }), undefined)).toMatchObject({
      ...HOSTED_ADDRESS_CAPS,
      pendingDeliveries: HOSTED_PENDING_DELIVERIES,
    });
    expect(hardCaps(validateApiConfig({ CAP_PENDING_DELIVERIES: '7' }), undefined).pendingDeliveries).toBe(7);
    expect(
      hardCaps(
        validateApiConfig({ HOSTED_MODE: 'true', CAP_ACCOUNTS_PER_HOUR: '5', CAP_ACCOUNTS_ALIVE: '0' }),
        1500,
      ),
    ).toMatchObject({ accountsPerHour: 5, accountsAlive: undefined, conformanceRunsPerAddress: 1 });
    expect(
      hardCaps(validateApiConfig({ HOSTED_MODE: 'true', CAP_CONFORMANCE_RUNS_PER_ADDRESS: '0' }), undefined)
        .conformanceRunsPerAddress,
    ).toBeUndefined();
    expect(
      hardCaps(validateApiConfig({ CAP_CONFORMANCE_RUNS_PER_ADDRESS: '3' }), undefined)
        .conformanceRunsPerAddress,
    ).toBe(3);
  });

  it('global: derived from the descriptor limit in every mode, unless set', () => {
    const derived = hardCaps(validateApiConfig({}), 1500);
    expect(derived).toMatchObject({ sockets: 1500 - 64 - 12, links: 1424 - 300, terminals: 1124 - 64 });
    expect(hardCaps(validateApiConfig({ CAP_CALLER_RESERVE: '400' }), 1500).links).toBe(1424 - 400);
    expect(hardCaps(validateApiConfig({ CAP_TERMINALS: '50', CAP_SOCKETS: '0' }), 1500)).toMatchObject({
      terminals: 50,
      sockets: undefined,
    });
    expect(hardCaps(validateApiConfig({}), undefined)).toMatchObject({
      terminals: undefined,
      links: undefined,
      sockets: undefined,
    });
  });
});
