import { plainToInstance, Type } from 'class-transformer';
import {
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';
import { DatabaseWaitSettings } from '@tps/database';
import { DEFAULT_SHARE, SHARE_ID_PATTERN } from '@tps/link';

/**
 * Every setting of the simulator, read from the environment and validated once at start-up; the
 * retention settings and the waits on the database are the service's own (DatabaseWaitSettings).
 */
export class SimulatorConfig extends DatabaseWaitSettings {
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3100;

  /**
   * Where the simulator listens: loopback unless told otherwise, since nothing but its own health
   * check and an operator need its port (the terminals link out to the service).
   */
  @IsString()
  HOST = '127.0.0.1';

  /**
   * Where the service is; the terminals open their links to it. Several replicas as a comma list:
   * the simulator links to one, and to the next when that one is gone (contract, scale-out).
   */
  @Matches(/^(https?|wss?):\/\/[^\s,]+(,(https?|wss?):\/\/[^\s,]+)*$/)
  API_URL = 'http://127.0.0.1:3000';

  @IsString()
  DATABASE_URL = 'sqlite:data/terminal.sqlite';

  /**
   * PostgreSQL only: the same database reached directly, when DATABASE_URL goes through a pooler
   * (PgBouncer in session or transaction mode), for what needs one server session: the migrations
   * under their advisory lock. Unset, DATABASE_URL serves for all, and a pooler in transaction
   * mode there is refused at start.
   */
  @IsOptional()
  @IsString()
  DATABASE_DIRECT_URL: string | undefined = undefined;

  /** PostgreSQL only: connections this process keeps to the server, reads and writes together. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE = 10;

  @IsString()
  @MinLength(16)
  LINK_SECRET = 'sandbox-link-secret-change-me';

  /** First wait before re-opening a dropped link; it doubles up to a second. */
  @Type(() => Number)
  @IsInt()
  @Min(10)
  RECONNECT_MIN_MS = 100;

  /**
   * The share of the fleet this process hosts. The service lets one simulator process hold a share
   * at a time and refuses another that links for it (docs/contract.md, "Links between the apps").
   */
  @Matches(SHARE_ID_PATTERN)
  FLEET_SHARE = DEFAULT_SHARE;

  /** First wait before asking again for a share another process holds; it doubles up to the max. */
  @Type(() => Number)
  @IsInt()
  @Min(10)
  SHARE_RETRY_MIN_MS = 1000;

  @Type(() => Number)
  @IsInt()
  @Min(10)
  SHARE_RETRY_MAX_MS = 30_000;

  /**
   * Test-only: scales the scenario waits (95: 10 s, 97: 60 s) so that end-to-end suites need not
   * sleep through them. Leave it at 1: the contract says those waits hold at every pace.
   */
  @Type(() => Number)
  @IsNumber()
  @Min(0.001)
  @Max(1)
  SCENARIO_WAIT_SCALE = 1;
}

export function validateSimulatorConfig(env: Record<string, unknown>): SimulatorConfig {
  const known = Object.keys(new SimulatorConfig());
  const picked = Object.fromEntries(Object.entries(env).filter(([key]) => known.includes(key)));
  const config = plainToInstance(SimulatorConfig, picked, { exposeDefaultValues: true });
  const errors = validateSync(config);
  if (errors.length > 0) {
    const detail = errors.map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join(', ')}`);
    throw new Error(`invalid simulator configuration: ${detail.join('; ')}`);
  }
  return config;
}

/** The replicas of API_URL, in the order they are tried. */
export function apiUrls(config: SimulatorConfig): string[] {
  return config.API_URL.split(',');
}

export function websocketUrl(apiUrl: string, path: string): string {
  return `${apiUrl.replace(/^http/, 'ws').replace(/\/$/, '')}${path}`;
}
