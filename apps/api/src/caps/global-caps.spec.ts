import { parseProcLimits } from './descriptor-limit';
import { defaultCallerReserve, deriveGlobalCaps } from './global-caps';

const PROC_LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            1500                 1048576              files
Max locked memory         8388608              8388608              bytes
`;

describe('global caps from the descriptor limit', () => {
  it('reads the soft limit of open files', () => {
    expect(parseProcLimits(PROC_LIMITS)).toBe(1500);
    expect(parseProcLimits(PROC_LIMITS.replace('1500  ', 'unlimited'))).toBeUndefined();
    expect(() => parseProcLimits('Max cpu time 1 1 seconds')).toThrow();
  });

  it('keeps descriptors for the process, the database and the callers below every cap', () => {
    const limit = 1500;
    const caps = deriveGlobalCaps({ limit, database: 11, callers: defaultCallerReserve(limit) });
    expect(caps).toEqual({ sockets: 1500 - 64 - 11, links: 1425 - 300, terminals: 1125 - 64 });
    expect(caps.terminals).toBeLessThan(caps.links);
    expect(caps.links).toBeLessThan(caps.sockets);
    expect(caps.sockets).toBeLessThan(limit);
  });

  it('never caps at zero', () => {
    expect(deriveGlobalCaps({ limit: 100, database: 11, callers: 128 })).toEqual({
      sockets: 25,
      links: 1,
      terminals: 1,
    });
  });
});
