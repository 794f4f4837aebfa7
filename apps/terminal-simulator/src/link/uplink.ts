import { WebSocket } from 'ws';
import {
  LINK_EPOCH_HEADER,
  LINK_INSTANCE_HEADER,
  LINK_SERIAL_HEADER,
  LINK_SHARE_HEADER,
  LINK_TOKEN_HEADER,
  LinkPeer,
  LinkUnavailableError,
  NOT_HOLDER_CLOSE_CODE,
  EVENTS_RECEIPT,
  TERMINAL_UPLINK_SIDE,
  UPLINK_PATH,
  uplinkReply,
  type TerminalRequest,
  type UplinkNotice,
  type UplinkRequest,
} from '@tps/link';
import { transactionKey } from '../runtime/runtime-store';
import { websocketUrl } from '../config/simulator-config';
import type { TerminalStore } from '../store/terminal-store';
import type { NoticeWait } from './notice-wait';
import type { ShareCredentials } from './share-membership';

export interface UplinkSettings {
  linkSecret: string;
  reconnectMinMs: number;
  /**
   * The share this process holds, or nothing while it holds none: then no uplink opens, so that a
   * process the service refused cannot take the holder's terminals over.
   */
  credentials: () => ShareCredentials | undefined;
  /** How long answered operations wait for the service's `stored` notice: one per process, the service's. */
  noticeWait: NoticeWait;
}

const ACK_TIMEOUT_MS = 10_000;
const BATCH = 100;
const RECONNECT_MAX_MS = 1000;
/** After the service failed to store a run (its storage down), when the run is offered again. */
const REFUSED_RUN_RETRY_MS = 500;
/**
 * How long, at the most, a transaction whose events travel in an operation's reply is held back
 * from the uplink, waiting for the service's `stored` notice. At pace instant a whole lifecycle
 * ends well within it, so its events travel once, in the reply. A slower one (pace realistic, a
 * person at the terminal) is held only this long: then its events go up as they happen, so that
 * the service shows it live (search, the console), and the reply's copies are duplicates.
 */
export const REPLY_HOLD_MS = 300;

/** A transaction held back from the uplink, and the events stored meanwhile. */
interface Hold {
  timer: NodeJS.Timeout;
  stored: Set<string>;
}

/**
 * A terminal's own connection to the service. It re-opens after a drop, and sends the store's
 * unacknowledged events strictly in order, as runs: a run goes once the one before it was
 * acknowledged, and holds whatever the terminal produced meanwhile.
 */
export class Uplink {
  private peer: LinkPeer | undefined;
  private wanted = false;
  private draining = false;
  private again = false;
  private retryMs: number;
  private retryTimer: NodeJS.Timeout | undefined;
  private refusedRunTimer: NodeJS.Timeout | undefined;
  private readonly upListeners: Array<() => void> = [];
  /** Transactions whose events travel in an operation's reply: held back from the uplink. */
  private readonly held = new Map<string, Hold>();

  constructor(
    private readonly serial: string,
    private readonly settings: UplinkSettings,
    private readonly store: TerminalStore,
    private readonly onRequest: (request: TerminalRequest) => Promise<unknown>,
    private readonly log: (message: string) => void,
  ) {
    this.retryMs = settings.reconnectMinMs;
  }

  get isUp(): boolean {
    return this.peer?.isOpen ?? false;
  }

  open(): void {
    if (this.wanted) return;
    this.wanted = true;
    this.connect();
  }

  /** Cuts the link (sandbox offline, or shutdown); events keep waiting in the store. */
  close(): void {
    this.wanted = false;
    clearTimeout(this.retryTimer);
    clearTimeout(this.refusedRunTimer);
    for (const hold of this.held.values()) clearTimeout(hold.timer);
    this.held.clear();
    this.peer?.close();
    this.peer = undefined;
  }

  /** Calls `listener` each time the link (re)opens, for senders with their own queue. */
  whenUp(listener: () => void): void {
    this.upListeners.push(listener);
  }

  /** Sends one request now; a link that is down rejects with LinkUnavailableError. */
  request(body: UplinkRequest, timeoutMs: number): Promise<unknown> {
    const peer = this.peer;
    if (peer === undefined || !peer.isOpen) return Promise.reject(new LinkUnavailableError('closed'));
    return peer.request(body, timeoutMs, uplinkReply(body));
  }

  /**
   * Runs an operation whose reply carries its transaction's events: they stay off the uplink until
   * the service says it stored them (`stored` notice), the operation fails, or REPLY_HOLD_MS pass;
   * once the reply is on its way, for as long as the service lately took to say so (NoticeWait).
   */
  async carryInReply<T>(
    merchantId: string,
    clientTransactionId: string,
    operate: () => Promise<T>,
  ): Promise<T> {
    const key = transactionKey(merchantId, clientTransactionId);
    clearTimeout(this.held.get(key)?.timer);
    this.held.set(key, { timer: setTimeout(() => this.release(key), REPLY_HOLD_MS), stored: new Set() });
    let result: T;
    try {
      result = await operate();
    } catch (error) {
      this.release(key);
      throw error;
    }
    this.settings.noticeWait.replied(key);
    const hold = this.held.get(key);
    if (hold !== undefined) {
      clearTimeout(hold.timer);
      hold.timer = setTimeout(() => this.release(key), this.settings.noticeWait.holdMs());
    }
    return result;
  }

  /**
   * New events (`eventIds`, of `transactionKey`) are in the store. Those of a held transaction wait
   * for its release: a flush for one of them has nothing to send.
   */
  flush(transactionKey?: string, eventIds: readonly string[] = []): void {
    const hold = transactionKey === undefined ? undefined : this.held.get(transactionKey);
    if (hold !== undefined) {
      for (const id of eventIds) hold.stored.add(id);
      return;
    }
    if (this.draining) {
      this.again = true;
      return;
    }
    if (!this.isUp) return;
    this.draining = true;
    this.drain()
      .catch((error: unknown) => {
        this.log(`uplink ${this.serial}: ${String(error)}`);
        // Nothing new may come to flush again: offer the same run later, until it is stored.
        clearTimeout(this.refusedRunTimer);
        this.refusedRunTimer = setTimeout(() => this.flush(), REFUSED_RUN_RETRY_MS);
      })
      .finally(() => {
        this.draining = false;
        if (this.again) {
          this.again = false;
          this.flush();
        }
      });
  }

  private async drain(): Promise<void> {
    for (;;) {
      this.again = false;
      const queued = await this.store.pending(this.serial, BATCH);
      const batch = queued.filter(
        ({ link }) =>
          !this.held.has(transactionKey(link.event.merchant_id, link.event.client_transaction_id)),
      );
      if (batch.length === 0) return;
      const peer = this.peer;
      if (peer === undefined || !peer.isOpen) return;
      const request: UplinkRequest = { type: 'events', links: batch.map((row) => row.link) };
      const receipt = await peer.request(request, ACK_TIMEOUT_MS, EVENTS_RECEIPT);
      await this.store.acknowledge(batch.slice(0, receipt.stored).map((row) => row.seq));
      // The service refused the next event: it stays queued, and the next flush offers it again.
      if (receipt.stored < batch.length) return;
      // The queue was read to its end: what was recorded since sets `again`, which drains again.
      if (queued.length < BATCH) return;
    }
  }

  /** Ends a hold; its events go up unless the service has them all (`drain` false). */
  private release(key: string, drain = true): void {
    const hold = this.held.get(key);
    if (hold === undefined) return;
    clearTimeout(hold.timer);
    this.held.delete(key);
    if (drain) this.flush();
  }

  /**
   * The service stored a reply's events: they are acknowledged as if they had come up. When it
   * stored every event the hold kept back, the queue has nothing new to read.
   */
  private onNotice(notice: UplinkNotice): void {
    if (notice.type !== 'stored') return;
    const key = transactionKey(notice.merchantId, notice.clientTransactionId);
    this.settings.noticeWait.noticed(key);
    this.store.acknowledgeEvents(notice.eventIds).then(
      () => {
        const hold = this.held.get(key);
        for (const id of notice.eventIds) hold?.stored.delete(id);
        this.release(key, hold !== undefined && hold.stored.size > 0);
      },
      (error: unknown) => {
        this.log(`uplink ${this.serial}: ${String(error)}`);
        this.release(key);
      },
    );
  }

  private connect(): void {
    if (!this.wanted) return;
    const credentials = this.settings.credentials();
    if (credentials === undefined) {
      this.retryLater();
      return;
    }
    const socket = new WebSocket(websocketUrl(credentials.apiUrl, UPLINK_PATH), {
      headers: {
        [LINK_SERIAL_HEADER]: this.serial,
        [LINK_TOKEN_HEADER]: this.settings.linkSecret,
        [LINK_SHARE_HEADER]: credentials.share,
        [LINK_INSTANCE_HEADER]: credentials.instance,
        [LINK_EPOCH_HEADER]: String(credentials.epoch),
      },
    });
    socket.once('open', () => {
      this.retryMs = this.settings.reconnectMinMs;
      this.flush();
      for (const listener of this.upListeners) listener();
    });
    socket.once('close', (code: number, reason: Buffer) => {
      if (code === NOT_HOLDER_CLOSE_CODE)
        this.log(`uplink ${this.serial} refused: ${reason.toString('utf8')}`);
      this.scheduleReconnect(socket);
    });
    socket.on('error', () => undefined);
    this.peer = new LinkPeer(
      socket,
      {
        side: TERMINAL_UPLINK_SIDE,
        onRequest: (request) => this.onRequest(request),
        onNotice: (notice) => this.onNotice(notice),
      },
      (error) => this.log(`uplink ${this.serial}: ${String(error)}`),
    );
  }

  private scheduleReconnect(socket: WebSocket): void {
    if (this.peer !== undefined && !this.peer.isOpen) this.peer = undefined;
    if (!this.wanted || socket.readyState !== WebSocket.CLOSED) return;
    this.retryLater();
  }

  private retryLater(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), this.retryMs);
    this.retryMs = Math.min(RECONNECT_MAX_MS, this.retryMs * 2);
  }
}
