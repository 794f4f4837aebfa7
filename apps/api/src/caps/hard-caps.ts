import { isHosted, type ApiConfig } from '../config/api-config';
import { defaultCallerReserve, deriveGlobalCaps, type GlobalCaps } from './global-caps';

/** Every hard cap of contract §22 this process holds to; undefined: none. */
export interface HardCaps {
  pendingDeliveries: number | undefined;
  accountsPerHour: number | undefined;
  accountsAlive: number | undefined;
  conformanceRunsPerAddress: number | undefined;
  terminals: number | undefined;
  links: number | undefined;
  sockets: number | undefined;
}

/**
 * Hosted mode's defaults per client address: a CI matrix's waves of accounts, each deleted at its
 * end or by idleness, but not a stranger's fleet of thousands; and one conformance run at a time,
 * so that one address's accounts never hold the sandbox's few runs (contract §22).
 */
export const HOSTED_ADDRESS_CAPS = {
  accountsPerHour: 60,
  accountsAlive: 20,
  conformanceRunsPerAddress: 1,
} as const;

/**
 * Hosted mode's default per account: deliveries pending at once, a few minutes of a busy CI job's
 * events with its receiver down, not an unbounded backlog of hanging receivers.
 */
export const HOSTED_PENDING_DELIVERIES = 1000;

/** The serial writer's connection beside the pool (PostgreSQL), or the SQLite file and its journal. */
const DATABASE_EXTRA = 2;

function capOf(configured: number | undefined, fallback: number | undefined): number | undefined {
  const value = configured ?? fallback;
  return value === 0 ? undefined : value;
}

/**
 * The caps as configured: per address, hosted mode's defaults or none; global, derived from the
 * descriptor limit (when one was read) in every mode, since past it the process stops answering.
 */
export function hardCaps(config: ApiConfig, descriptorLimit: number | undefined): HardCaps {
  const hosted = isHosted(config);
  const derived: Partial<GlobalCaps> =
    descriptorLimit === undefined
      ? {}
      : deriveGlobalCaps({
          limit: descriptorLimit,
          database: config.DATABASE_POOL_SIZE + DATABASE_EXTRA,
          callers: config.CAP_CALLER_RESERVE ?? defaultCallerReserve(descriptorLimit),
        });
  return {
    pendingDeliveries: capOf(config.CAP_PENDING_DELIVERIES, hosted ? HOSTED_PENDING_DELIVERIES : undefined),
    accountsPerHour: capOf(
      config.CAP_ACCOUNTS_PER_HOUR,
      hosted ? HOSTED_ADDRESS_CAPS.accountsPerHour : undefined,
    ),
    accountsAlive: capOf(config.CAP_ACCOUNTS_ALIVE, hosted ? HOSTED_ADDRESS_CAPS.accountsAlive : undefined),
    conformanceRunsPerAddress: capOf(
      config.CAP_CONFORMANCE_RUNS_PER_ADDRESS,
      hosted ? HOSTED_ADDRESS_CAPS.conformanceRunsPerAddress : undefined,
    ),
    terminals: capOf(config.CAP_TERMINALS, derived.terminals),
    links: capOf(config.CAP_LINKS, derived.links),
    sockets: capOf(config.CAP_SOCKETS, derived.sockets),
  };
}
