/** The caps of the whole process (contract §22), each a count of open descriptors it may use. */
export interface GlobalCaps {
  /** Connections the HTTP server keeps open at once, links and callers' requests together. */
  sockets: number;
  /** WebSocket links at once: terminals' uplinks, simulators' control links and `listen` sockets. */
  links: number;
  /** Terminals stored for the whole service, each one holding one uplink while it is linked. */
  terminals: number;
}

export interface DescriptorBudget {
  /** The process's descriptor limit (`ulimit -n`). */
  limit: number;
  /** Connections to the database (its pool and the serial writer's own). */
  database: number;
  /** Descriptors kept for callers' requests and health checks, which links never take. */
  callers: number;
}

/** Descriptors Node and the service hold whatever the load: stdio, the event loop, files, DNS. */
export const PROCESS_OVERHEAD = 64;
/** Links that are not terminals' uplinks: simulators' control links and `listen` sockets. */
export const OTHER_LINKS = 64;

/**
 * Derives the global caps from the descriptor limit: the sockets the server may hold leave the
 * database and the process its descriptors; the links leave the callers theirs; the terminals
 * leave room for the links that are not uplinks. Each cap is at least 1, so a tiny limit refuses
 * load rather than everything.
 */
export function deriveGlobalCaps({ limit, database, callers }: DescriptorBudget): GlobalCaps {
  const sockets = Math.max(1, limit - PROCESS_OVERHEAD - database);
  const links = Math.max(1, sockets - callers);
  const terminals = Math.max(1, links - OTHER_LINKS);
  return { sockets, links, terminals };
}

/** The callers' reserve by default: a fifth of the limit, and never fewer than 128 descriptors. */
export function defaultCallerReserve(limit: number): number {
  return Math.max(128, Math.floor(limit / 5));
}
