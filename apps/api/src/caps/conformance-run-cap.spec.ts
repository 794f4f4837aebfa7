import { RateLimitedError } from '@tps/domain';
import { conformanceRunRefusal } from './conformance-run-cap';

const from = (...addresses: Array<string | null>): Array<{ clientAddress: string | null }> =>
  addresses.map((clientAddress) => ({ clientAddress }));

describe('the cap of conformance runs per client address (contract §22)', () => {
  it("counts the address's runs going on, whichever account started them, and refuses at the cap", () => {
    const refusal = conformanceRunRefusal(2, '203.0.113.1', from('203.0.113.1', '203.0.113.1'), 60);
    expect(refusal).toBeInstanceOf(RateLimitedError);
    expect(refusal?.code).toBe('RATE-001');
    expect(refusal?.retryAfterSeconds).toBe(60);
    expect(refusal?.message).toContain('conformance_runs_per_address = 2');
    expect(refusal?.message).toContain('2 conformance run(s) going on');
  });

  it("admits below the cap: another address's runs, and runs stored without an address, count for none", () => {
    const others = from('203.0.113.2', '203.0.113.2', null, null);
    expect(conformanceRunRefusal(2, '203.0.113.1', [...others, ...from('203.0.113.1')], 60)).toBeNull();
    expect(conformanceRunRefusal(1, '203.0.113.1', others, 60)).toBeNull();
    expect(conformanceRunRefusal(1, '203.0.113.2', others, 60)).not.toBeNull();
  });

  it('admits every run without a cap', () => {
    expect(
      conformanceRunRefusal(undefined, '203.0.113.1', from('203.0.113.1', '203.0.113.1'), 60),
    ).toBeNull();
  });
});
