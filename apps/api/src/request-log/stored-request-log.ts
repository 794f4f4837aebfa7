import { randomUUID } from 'node:crypto';
import type { BeforeApplicationShutdown } from '@nestjs/common';
import type { AnsweredRequest } from '@tps/http';
import type { Pool } from 'pg';
import { RequestLog, recordOf, REQUESTS_PER_MERCHANT, type RequestRecord } from './request-log';

/** Answered requests are written together, at most this long after the first of them. */
const FLUSH_MS = 100;
/** Records one write takes at most. */
const BATCH = 500;
/** Records waiting while the store is away, at most: the oldest go first. */
const MAX_WAITING = 10_000;

interface Waiting {
  id: string;
  merchantId: string;
  atMs: number;
  record: RequestRecord;
}

interface RecordRow {
  at_ms: string | number;
  method: string;
  path: string;
  status: string | number;
  duration_us: string | number;
  request_id: string;
}

/**
 * A merchant's recent requests on a database several replicas share (docs/contract.md, "Request
 * ids"): whichever replica answered them, any replica lists them. Written in batches, every
 * FLUSH_MS at most, never once per request; each batch keeps only the last REQUESTS_PER_MERCHANT
 * of the merchants it wrote for. A replica's own records not yet written are listed too.
 */
export class StoredRequestLog extends RequestLog implements BeforeApplicationShutdown {
  private waiting: Waiting[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly pool: Pool,
    private readonly onError: (error: unknown) => void,
  ) {
    super();
  }

  record(merchantId: string, answered: AnsweredRequest): void {
    this.waiting.push({
      id: randomUUID(),
      merchantId,
      atMs: answered.at.getTime(),
      record: recordOf(answered),
    });
    if (this.waiting.length > MAX_WAITING) this.waiting.shift();
    if (this.waiting.length >= BATCH) this.flush();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => this.flush(), FLUSH_MS);
      this.timer.unref();
    }
  }

  async recent(merchantId: string): Promise<RequestRecord[]> {
    const { rows } = await this.pool.query<RecordRow>(
      `SELECT at_ms, method, path, status, duration_us, request_id FROM merchant_requests
       WHERE merchant_id = $1 ORDER BY at_ms DESC LIMIT ${REQUESTS_PER_MERCHANT}`,
      [merchantId],
    );
    const stored = rows.map((row) => ({
      at: new Date(Number(row.at_ms)).toISOString(),
      method: row.method,
      path: row.path,
      status: Number(row.status),
      duration_ms: Number(row.duration_us) / 1000,
      request_id: row.request_id,
    }));
    const mine = this.waiting
      .filter((waiting) => waiting.merchantId === merchantId)
      .map((waiting) => waiting.record)
      .reverse();
    return [...mine, ...stored].slice(0, REQUESTS_PER_MERCHANT);
  }

  /** Before the pools close (onApplicationShutdown): its last writes go first. */
  async beforeApplicationShutdown(): Promise<void> {
    this.flush();
    await this.writes;
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting.splice(0, BATCH);
    if (batch.length === 0) return;
    this.writes = this.writes
      .then(() => this.write(batch))
      .catch((error: unknown) => {
        // Kept for the next write, behind what came since: the store may be back by then.
        this.waiting = [...batch, ...this.waiting].slice(-MAX_WAITING);
        this.onError(error);
      });
    if (this.waiting.length > 0 && this.timer === undefined) {
      this.timer = setTimeout(() => this.flush(), FLUSH_MS);
      this.timer.unref();
    }
  }

  private async write(batch: Waiting[]): Promise<void> {
    await this.pool.query(
      `INSERT INTO merchant_requests (id, merchant_id, at_ms, method, path, status, duration_us, request_id)
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::bigint[], $4::varchar[], $5::text[], $6::bigint[],
         $7::bigint[], $8::varchar[])
       ON CONFLICT (id) DO NOTHING`,
      [
        batch.map((waiting) => waiting.id),
        batch.map((waiting) => waiting.merchantId),
        batch.map((waiting) => waiting.atMs),
        batch.map((waiting) => waiting.record.method),
        batch.map((waiting) => waiting.record.path),
        batch.map((waiting) => waiting.record.status),
        // Microseconds, whole: what a duration is measured to.
        batch.map((waiting) => Math.round(waiting.record.duration_ms * 1000)),
        batch.map((waiting) => waiting.record.request_id),
      ],
    );
    const merchants = [...new Set(batch.map((waiting) => waiting.merchantId))];
    await this.pool.query(
      `DELETE FROM merchant_requests WHERE id IN (
         SELECT id FROM (
           SELECT id, row_number() OVER (PARTITION BY merchant_id ORDER BY at_ms DESC, id) AS n
           FROM merchant_requests WHERE merchant_id = ANY($1::varchar[])) ranked
         WHERE n > ${REQUESTS_PER_MERCHANT})`,
      [merchants],
    );
  }
}
