import { randomUUID } from 'node:crypto';
import type { BeforeApplicationShutdown } from '@nestjs/common';
import type { AnsweredRequest } from '@tps/http';
import { RequestLog, recordOf, REQUESTS_PER_MERCHANT, type RequestRecord } from './request-log';
import type { RequestLogStore } from './request-log-store';

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
    private readonly store: RequestLogStore,
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
    const stored = (await this.store.recent(merchantId, REQUESTS_PER_MERCHANT)).map((logged) => ({
      at: new Date(logged.atMs).toISOString(),
      method: logged.method,
      path: logged.path,
      status: logged.status,
      duration_ms: logged.durationUs / 1000,
      request_id: logged.requestId,
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
    await this.store.append(
      batch.map(({ id, merchantId, atMs, record }) => ({
        id,
        merchantId,
        atMs,
        method: record.method,
        path: record.path,
        status: record.status,
        // Microseconds, whole: what a duration is measured to.
        durationUs: Math.round(record.duration_ms * 1000),
        requestId: record.request_id,
      })),
      REQUESTS_PER_MERCHANT,
    );
  }
}
