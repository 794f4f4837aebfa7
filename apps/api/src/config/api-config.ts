import { hostname } from 'node:os';
import { plainToInstance, Transform, Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';
import { DEFAULT_CARDHOLDER_MANUAL_LAPSE_MS } from '@tps/domain';
import { DatabaseWaitSettings, SecretKeyring } from '@tps/database';
import { PROFILES, destinationsOf, type DestinationRules, type Profile } from '@tps/delivery';

/** A number, or unset when empty (`QUOTA_X: ${QUOTA_X:-}` in a compose file passes it empty). */
function optionalNumber({ value }: { value: unknown }): unknown {
  return value === '' || value === undefined ? undefined : Number(value);
}

/** Webhook attempts in flight at once, across all merchants: a bound on sockets, not on throughput. */
export const MAX_CONCURRENT_ATTEMPTS = 64;

/**
 * Every setting of the API, read from the environment and validated once at start-up; the
 * retention settings and the waits on the database are shared with the simulator (DatabaseWaitSettings).
 */
export class ApiConfig extends DatabaseWaitSettings {
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  HOST = '0.0.0.0';

  @IsString()
  DATABASE_URL = 'sqlite:data/api.sqlite';

  /**
   * PostgreSQL only: the same database reached directly, when DATABASE_URL goes through a pooler
   * (PgBouncer in session or transaction mode), for what needs one server session: the migrations
   * under their advisory lock, the LISTEN and NOTIFY sessions of the messages between replicas. Unset, DATABASE_URL serves for all, and a pooler in transaction
   * mode there is refused at start.
   */
  @IsOptional()
  @IsString()
  DATABASE_DIRECT_URL: string | undefined = undefined;

  /**
   * `GET /health` says the database is `degraded` (and stays 200) while its check's round trip
   * takes longer than this (contract, "The database a platform team runs").
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  DATABASE_DEGRADED_RTT_MS = 200;

  /** PostgreSQL only: connections this process keeps to the server, reads and writes together. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE = 10;

  @IsIn(PROFILES)
  PROFILE: Profile = 'sandbox';

  /** Shared by the service and the terminals it trusts; the production profile demands a real one. */
  @IsString()
  @MinLength(16)
  LINK_SECRET = 'sandbox-link-secret-change-me';

  /** How long a sync operation may wait for its terminal (scenario 97 waits up to 60 s). */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  TERMINAL_REPLY_TIMEOUT_MS = 90_000;

  /**
   * How long a stopping replica (SIGTERM) takes at most, by design: under Kubernetes' default
   * grace period of 30 s. What still runs near its end is cut and answered 504 TER-002 (outcome
   * unknown: the same request asked again answers it); the last fifth (3 s at most) is the close's.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  DRAIN_TIMEOUT_MS = 25_000;

  /**
   * How long a stopping replica must have gone without a request (each one refused) before it
   * closes, within DRAIN_TIMEOUT_MS: until its callers, or a balancer, have each been refused
   * once and moved to another replica. Liveness and readiness checks do not count.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  DRAIN_QUIET_MS = 500;

  @Type(() => Number)
  @IsInt()
  @Min(100)
  WEBHOOK_TIMEOUT_MS = 10_000;

  /**
   * `listen` connections a merchant may hold open on one process (contract §6.1): each one gets
   * every attempt, so a replayed signature must not open hundreds; more are refused 429 RATE-001.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  LISTEN_SOCKETS_PER_MERCHANT = 5;

  /**
   * How long a print job's hand-off waits for the terminal to take it into its queue, which it
   * does at once: past it the answer is 504 TER-002 and the job is kept (contract, Print jobs).
   */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  PRINT_HANDOFF_TIMEOUT_MS = 10_000;

  /** How long the print webhook's one attempt waits for an answer (the specification's 15 s). */
  @Type(() => Number)
  @IsInt()
  @Min(10)
  PRINT_CALLBACK_TIMEOUT_MS = 15_000;

  /**
   * Webhook attempts in flight at once to one destination (scheme, host and port), out of the
   * MAX_CONCURRENT_ATTEMPTS of the whole service: a receiver that hangs holds at most this share.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_CONCURRENT_ATTEMPTS)
  WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION = 8;

  /**
   * Pending webhook deliveries of one merchant that every process on the outbox holds together
   * (print callbacks counted apart), past which claims take no more of its (contract, webhook
   * delivery, "Fairness"). Unset: what one process lets a merchant alone have in flight
   * (merchantHoldCap).
   */
  @IsOptional()
  @Transform(optionalNumber)
  @IsInt()
  @Min(1)
  WEBHOOK_MAX_HELD_PER_MERCHANT: number | undefined = undefined;

  /**
   * How long a process holds the webhook deliveries it leased from the outbox without renewing
   * them (it renews every third of it): a process that dies has its deliveries taken over by
   * another once this has passed. At most 30 s (scale-out: taken over within 30 s).
   */
  @Type(() => Number)
  @IsInt()
  @Min(300)
  @Max(30_000)
  DELIVERY_LEASE_MS = 30_000;

  /**
   * Test-only: multiplies every duration of the webhook retry schedule (2 s base, 60 s cap, 2 s
   * jitter, 15-minute window) so that end-to-end tests run the real policy in milliseconds.
   * Must stay 1 in production.
   */
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.0001)
  @Max(1)
  WEBHOOK_RETRY_SCALE = 1;

  @IsIn(['true', 'false'])
  SEED = 'true';

  /** Requests each merchant may make per window before 429 RATE-001 (contract §4). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_MAX = 1000;

  @Type(() => Number)
  @IsInt()
  @Min(100)
  RATE_LIMIT_WINDOW_MS = 1000;

  /** Conformance run (contract §17): how long a receiver has to search after a gap or an out-of-order event. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  CONFORMANCE_SEARCH_WINDOW_MS = 30_000;

  /** Conformance run: how long one request to the receiver waits for its answer. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  CONFORMANCE_ANSWER_TIMEOUT_MS = 5000;

  /**
   * Sandbox accounts each client address may create per window (`POST /sandbox/accounts`): room
   * for CI matrices behind one NAT address (a 20-job matrix makes 20 a wave, several waves a minute).
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  ACCOUNT_RATE_LIMIT_MAX = 300;

  @Type(() => Number)
  @IsInt()
  @Min(100)
  ACCOUNT_RATE_LIMIT_WINDOW_MS = 60_000;

  /**
   * How long a sandbox terminal's `cardholder: manual` holds before it goes back to `auto`
   * (contract §15): on a shared demo merchant one viewer's choice must not stall everyone's.
   */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  CARDHOLDER_MANUAL_LAPSE_MS = DEFAULT_CARDHOLDER_MANUAL_LAPSE_MS;

  /** How often the service looks for terminals that should be linked and are not (CLI-added ones). */
  @Type(() => Number)
  @IsInt()
  @Min(50)
  FLEET_SYNC_INTERVAL_MS = 1000;

  /**
   * How many simulator shares the fleet is split over (docs/contract.md, "Links between the
   * apps"): 1 is the one share `fleet`; N > 1 is `shard-1` to `shard-N`, a terminal's by its serial.
   * Every replica of a cluster must be given the same number.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(64)
  FLEET_SHARES = 1;

  /**
   * How often the service pings each simulator's control link. A holder that answers none for
   * three intervals is gone: its link is closed and its fleet share may be taken over.
   */
  @Type(() => Number)
  @IsInt()
  @Min(50)
  LINK_HEARTBEAT_MS = 5000;

  /**
   * Several replicas: how many idle terminals a second a replica asks to link again through the
   * balancer when their requests mostly reach another replica (link/uplink-rebalance.ts); 0: never.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(100)
  LINK_REBALANCE_PER_SECOND = 4;

  /** Production only: let webhooks and callbacks reach loopback, private and link-local addresses. */
  @IsIn(['true', 'false'])
  ALLOW_PRIVATE_WEBHOOKS = 'false';

  /**
   * A sandbox run for others (contract, "Hosted mode"): webhook, callback and conformance URLs
   * that reach loopback, private, link-local or cloud-metadata addresses are refused (plain http
   * stays allowed). Off by default: a sandbox on a laptop sends to 127.0.0.1.
   */
  @IsIn(['true', 'false'])
  HOSTED_MODE = 'false';

  /**
   * Hosted mode only: `POST /sandbox/accounts` needs `Authorization: Bearer <token>` (401
   * AUTH-003 otherwise). Unset, account creation is limited per client address only.
   */
  @IsOptional()
  @IsString()
  @MinLength(16)
  @Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value))
  ACCOUNT_CREATION_TOKEN: string | undefined = undefined;

  /**
   * Per-account quotas (contract, "Hosted mode"), so that one account cannot starve the rest:
   * unset, hosted mode takes its defaults (account-quotas.ts) and any other sandbox has none;
   * 0 turns one off.
   */
  @IsOptional()
  @Transform(optionalNumber)
  @IsInt()
  @Min(0)
  QUOTA_TERMINALS: number | undefined = undefined;

  @IsOptional()
  @Transform(optionalNumber)
  @IsInt()
  @Min(0)
  QUOTA_REQUESTS_PER_SECOND: number | undefined = undefined;

  @IsOptional()
  @Transform(optionalNumber)
  @IsInt()
  @Min(0)
  QUOTA_TRANSACTIONS_PER_DAY: number | undefined = undefined;

  /**
   * Test-only: the length of the second QUOTA_REQUESTS_PER_SECOND counts in, so that a test across
   * replicas on a busy machine need not fit in one real second. Must stay 1000.
   */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  QUOTA_SECOND_MS = 1000;

  /**
   * Hard caps per client address (contract §22): sandbox accounts made in the last hour, and
   * alive at once. Unset: hosted mode's defaults (hard-caps.ts), none elsewhere; 0 is none.
   */
  @IsOptional()
  @Transform(optionalNumber)
  @IsInt()
  @Min(0)
  CAP_ACCOUNTS_PER_HOUR: number | undefined = undefined;

  @IsOptional()
  @Transform(optionalNumber)
  @IsInt()
  @Min(0)
  CAP_ACCOUNTS_ALIVE: number | undefined = undefined;

  /**
   * Hard cap per client address: conformance runs going on at once, whichever of its accounts
   * started them. Unset: hosted mode's default (hard-caps.ts), none elsewhere; 0 is none.
   */
  @IsOptional()
  @Transform(optionalNumber)
  @IsInt()
  @Min(0)
  CAP_CONFORMANCE_RUNS_PER_ADDRESS: number | undefined = undefined;

  /**
   * Hard cap per account: webhook deliveries pending, past which it starts no new operation (409
   * CAP-001). Unset: hosted mode's default (hard-caps.ts), none elsewhere; 0 is none.
   */
  @IsOptional()
  @Transform(optionalNumber)
  @IsInt()
  @Min(0)
  CAP_PENDING_DELIVERIES: number | undefined = undefined;

  /**
   * The global caps (terminals, links, sockets) are derived from the process's descriptor limit
   * (`ulimit -n`, read at start), keeping this many descriptors for callers' requests and health
   * checks. Unset: a fifth of the limit, at least 128.
   */
  @IsOptional()
  @Transform(optionalNumber)
  @IsInt()
  @Min(0)
  CAP_CALLER_RESERVE: number | undefined = undefined;

  /** Each global cap as derived unless set; 0 is none. */
  @IsOptional()
  @Transform(optionalNumber)
  @IsInt()
  @Min(0)
  CAP_TERMINALS: number | undefined = undefined;

  @IsOptional()
  @Transform(optionalNumber)
  @IsInt()
  @Min(0)
  CAP_LINKS: number | undefined = undefined;

  @IsOptional()
  @Transform(optionalNumber)
  @IsInt()
  @Min(0)
  CAP_SOCKETS: number | undefined = undefined;

  /**
   * `GET /metrics` on a listener of its own, on HOST (0: any free port, named in the log line
   * `metrics on port N`). Unset, with METRICS_TOKEN unset too, there is no metrics route.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  METRICS_PORT: number | undefined = undefined;

  /**
   * `GET /metrics` answers only with `Authorization: Bearer <token>`; without METRICS_PORT it is
   * served on the API's own port.
   */
  @IsOptional()
  @IsString()
  @MinLength(16)
  METRICS_TOKEN: string | undefined = undefined;

  /**
   * How often the figures that live in the database (the outbox's depth and oldest age) are read
   * for the metrics, in the background by one replica: a scrape reads nothing from the database.
   */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  METRICS_REFRESH_MS = 5000;

  /**
   * The keys that seal merchant secret keys and webhook secrets at rest: `<id>:<key>` entries
   * separated by commas (64 hex digits or base64 of 32 bytes each); the first seals, all open.
   * Required in the production profile; the sandbox keeps a key of its own in SECRETS_KEY_FILE.
   */
  @IsOptional()
  @IsString()
  // Empty is unset, as `SECRETS_KEY: ${SECRETS_KEY:-}` in a compose file passes it.
  @Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value))
  SECRETS_KEY: string | undefined = undefined;

  /**
   * Sandbox without SECRETS_KEY: the file of the local key, made on first start. Default: beside
   * the SQLite file (`data/api-secrets.key`), or `data/api-secrets.key` for another database.
   */
  @IsOptional()
  @IsString()
  @MinLength(1)
  SECRETS_KEY_FILE: string | undefined = undefined;

  /**
   * The proxies whose `X-Forwarded-For` names the client: a comma list of addresses, CIDR ranges or
   * `loopback`, `linklocal`, `uniquelocal`. Unset: no header is trusted, the socket's address is
   * the client's (anyone can write the header).
   */
  @IsOptional()
  @IsString()
  @MinLength(1)
  TRUSTED_PROXIES: string | undefined = undefined;

  /**
   * Sandbox accounts with no signed request for this long (real time) are deleted with all their
   * data. A fraction of a day is taken, for tests.
   */
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.00001)
  ACCOUNT_IDLE_DAYS = 30;

  /** The `replica` label of every metric: this process among several. */
  @IsString()
  @MinLength(1)
  REPLICA_ID = `${hostname()}-${process.pid}`;

  /**
   * PostgreSQL only: how often this replica tells the others it is alive. One that misses three
   * holds no link any more: its terminals are reached through whichever replica they link to next.
   */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  REPLICA_HEARTBEAT_MS = 1000;

  /**
   * PostgreSQL only: how often this replica stores every link it holds as its own again, though
   * none of its writes failed. Across replicas the last write of a link's holder wins: another
   * replica's write for the same link, held up by a slow database, may run after this one's and
   * leave the row wrong or gone.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  LINK_HOLDERS_REWRITE_MS = 60_000;

  /**
   * PostgreSQL only: how often one replica removes the routed requests a caller that died left
   * behind (those past their reply timeout by 10 s).
   */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  ROUTED_REQUEST_SWEEP_INTERVAL_MS = 60_000;
}

/** A sandbox run for others (contract, "Hosted mode"); the flag means nothing in production. */
export function isHosted(config: ApiConfig): boolean {
  return config.PROFILE === 'sandbox' && config.HOSTED_MODE === 'true';
}

/**
 * The cap of a merchant's pending deliveries (or print callbacks) the processes hold through
 * claims, cluster-wide: WEBHOOK_MAX_HELD_PER_MERCHANT, else what one process's reserve leaves a
 * merchant in flight (TenantLines: the slots less one destination's share, or that share when it
 * is more), 56 as shipped.
 */
export function merchantHoldCap(config: ApiConfig): number {
  const share = config.WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION;
  return config.WEBHOOK_MAX_HELD_PER_MERCHANT ?? Math.max(MAX_CONCURRENT_ATTEMPTS - share, share);
}

/** The rules every webhook and callback URL must meet under this configuration. */
export function destinationRules(config: ApiConfig): DestinationRules {
  if (isHosted(config)) {
    return { requireHttps: false, allowPrivate: false, refuseOwnAddresses: true };
  }
  return destinationsOf(config.PROFILE, config.ALLOW_PRIVATE_WEBHOOKS === 'true');
}

export function validateApiConfig(env: Record<string, unknown>): ApiConfig {
  const known = Object.keys(new ApiConfig());
  const picked = Object.fromEntries(Object.entries(env).filter(([key]) => known.includes(key)));
  const config = plainToInstance(ApiConfig, picked, { exposeDefaultValues: true });
  const errors = validateSync(config, { skipMissingProperties: false });
  if (errors.length > 0) {
    const detail = errors.map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join(', ')}`);
    throw new Error(`invalid API configuration: ${detail.join('; ')}`);
  }
  if (config.PROFILE === 'production' && config.LINK_SECRET === new ApiConfig().LINK_SECRET) {
    throw new Error('invalid API configuration: LINK_SECRET must be set in the production profile');
  }
  if (config.PROFILE === 'production' && config.SECRETS_KEY === undefined) {
    throw new Error(
      'invalid API configuration: SECRETS_KEY must be set in the production profile (secrets are sealed at rest)',
    );
  }
  if (config.SECRETS_KEY !== undefined) {
    try {
      SecretKeyring.parse(config.SECRETS_KEY);
    } catch (error) {
      throw new Error(`invalid API configuration: ${(error as Error).message}`);
    }
  }
  if (config.ACCOUNT_CREATION_TOKEN !== undefined && !isHosted(config)) {
    throw new Error(
      'invalid API configuration: ACCOUNT_CREATION_TOKEN applies in hosted mode only (PROFILE=sandbox with HOSTED_MODE=true)',
    );
  }
  if (config.PROFILE === 'production' && config.WEBHOOK_RETRY_SCALE !== 1) {
    throw new Error(
      'invalid API configuration: WEBHOOK_RETRY_SCALE is for tests and must be 1 in production',
    );
  }
  return config;
}
