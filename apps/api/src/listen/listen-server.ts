import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { PeriodicTask } from '@tps/background';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { LISTEN_PATH, parseListenAnswer, type ListenAnswer, type ListenDelivery } from '@tps/contracts';
import { ANSWER_EXCERPT_BYTES, type PostResult } from '@tps/delivery';
import { answerOnSocket, toContractError } from '@tps/http';
import type { Unsubscribe } from '@tps/messaging';
import { RateLimitedError } from '@tps/domain';
import { MerchantRateLimiter } from '../auth/merchant-rate-limiter';
import { MerchantRepository } from '../auth/merchant.repository';
import { ApiConfig } from '../config/api-config';
import { API_MESSAGES, type ApiMessages } from '../messages/api-messages';
import { BackgroundTasks } from '../metrics/background-tasks';
import { listeningMerchant } from './listen-authentication';
import { PRESENCE_REPEAT_MS } from './presence-book';

/** One open `listen` connection, and the copies sent to it that it has not answered. */
interface Listener {
  id: string;
  merchantId: string;
  ws: WebSocket;
  unanswered: Set<string>;
  alive: boolean;
}

/** When a refused `listen` may try again: a connection of the merchant may have closed by then. */
const LISTEN_RETRY_AFTER_SECONDS = 10;

/**
 * Copies a connection may leave unanswered; past it the oldest is forgotten (its answer, if it
 * ever comes, no longer counts: the attempt took it as a timeout long before), so a listener
 * that never answers holds bounded memory while it stays open.
 */
const MAX_UNANSWERED = 1024;

/** A listener's message that is not an answer closes its connection with this code (policy). */
const POLICY_VIOLATION = 1008;

function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  return (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)).toString('utf8');
}

function resultOf(answer: ListenAnswer): PostResult {
  return {
    outcome:
      answer.status_code === undefined
        ? { error: answer.error ?? 'network_error' }
        : { statusCode: answer.status_code },
    latencyMs: answer.latency_ms,
    answerExcerpt: Buffer.from(answer.excerpt).subarray(0, ANSWER_EXCERPT_BYTES).toString('utf8'),
  };
}

/**
 * The sandbox's end of `listen` (contract §6.1): accepts a merchant's signed WebSocket, tells the
 * message port it is open, and sends it a copy of every webhook attempt for that merchant, one
 * per connection. A listener answers only copies it was sent, so it can neither see nor answer
 * another merchant's.
 */
@Injectable()
export class ListenServer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Listen');
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly listeners = new Map<string, Listener>();
  /** Per merchant, upgrades authenticated and not yet open: counted against the cap too. */
  private readonly opening = new Map<string, number>();
  private readonly unsubscribe: Unsubscribe;
  private readonly beat: PeriodicTask;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly merchants: MerchantRepository,
    private readonly limiter: MerchantRateLimiter,
    private readonly config: ApiConfig,
    @Inject(API_MESSAGES) private readonly messages: ApiMessages,
    tasks: BackgroundTasks,
  ) {
    this.beat = tasks.every({
      name: 'listen-presence',
      everyMs: PRESENCE_REPEAT_MS,
      run: () => this.heartbeat(),
    });
    // A signed upgrade that is no WebSocket handshake (no key, another version): refused in the
    // contract's body (§4) where ws would write its own text/html one.
    this.wss.on('wsClientError', (error, socket) => {
      socket.once('finish', () => socket.destroy());
      answerOnSocket(socket, 'PAR-001', `not a WebSocket handshake: ${error.message}`);
    });
    this.unsubscribe = messages.subscribe(
      'listen.attempt',
      ({ attemptId, merchantId, post }) => {
        const delivery: ListenDelivery = {
          type: 'delivery',
          attempt_id: attemptId,
          url: post.url,
          headers: post.headers,
          body: post.body,
        };
        const frame = JSON.stringify(delivery);
        for (const listener of this.listeners.values()) {
          if (listener.merchantId !== merchantId) continue;
          listener.unanswered.add(attemptId);
          if (listener.unanswered.size > MAX_UNANSWERED) {
            listener.unanswered.delete(listener.unanswered.values().next().value as string);
          }
          listener.ws.send(frame);
        }
      },
      'cluster',
    );
  }

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if ((request.url ?? '').split('?')[0] !== LISTEN_PATH) return;
      this.upgrade(request, socket, head).catch((error: unknown) => {
        this.logger.error(`listen upgrade failed: ${String(error)}`);
        socket.destroy();
      });
    });
    this.beat.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.beat.stop();
    this.unsubscribe();
    for (const listener of this.listeners.values()) listener.ws.terminate();
    this.wss.close();
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    let merchantId: string;
    try {
      merchantId = await listeningMerchant(request, this.merchants, this.config);
      this.limiter.consume(merchantId);
      this.admit(merchantId);
    } catch (error) {
      const refusal = toContractError(error);
      const body = JSON.stringify(refusal.toBody());
      socket.end(
        `HTTP/1.1 ${refusal.status} Refused\r\ncontent-type: application/json\r\n` +
          (refusal.retryAfterSeconds === undefined ? '' : `retry-after: ${refusal.retryAfterSeconds}\r\n`) +
          `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
      return;
    }
    // Closed by its client while it was checked: its 'close' has been and gone, and a place
    // counted now would never be given back (the merchant refused 429 for good on this process).
    if (socket.destroyed) return;
    this.opening.set(merchantId, (this.opening.get(merchantId) ?? 0) + 1);
    const opened = (): void => {
      const left = (this.opening.get(merchantId) ?? 1) - 1;
      if (left > 0) this.opening.set(merchantId, left);
      else this.opening.delete(merchantId);
    };
    // An upgrade that fails never calls back: the socket's close gives its place back.
    let settled = false;
    socket.once('close', () => {
      if (!settled) opened();
      settled = true;
    });
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      if (!settled) opened();
      settled = true;
      this.accept(ws, merchantId);
    });
  }

  /** 429 RATE-001 over the merchant's cap of open (and opening) connections on this process. */
  private admit(merchantId: string): void {
    let open = this.opening.get(merchantId) ?? 0;
    for (const listener of this.listeners.values()) if (listener.merchantId === merchantId) open += 1;
    const cap = this.config.LISTEN_SOCKETS_PER_MERCHANT;
    if (open >= cap) {
      throw new RateLimitedError(
        LISTEN_RETRY_AFTER_SECONDS,
        `this merchant already has ${cap} listen connections open, the most allowed`,
      );
    }
  }

  private accept(ws: WebSocket, merchantId: string): void {
    const listener: Listener = { id: randomUUID(), merchantId, ws, unanswered: new Set(), alive: true };
    this.listeners.set(listener.id, listener);
    this.logger.log(`merchant ${merchantId} listens (${listener.id})`);
    ws.on('pong', () => (listener.alive = true));
    ws.on('message', (data: RawData) => this.onAnswer(listener, data));
    ws.on('close', () => this.drop(listener));
    ws.on('error', (error) => this.logger.warn(`listener ${listener.id}: ${String(error)}`));
    this.announce(listener, true);
  }

  private onAnswer(listener: Listener, data: RawData): void {
    const answer = parseListenAnswer(textOf(data));
    if (answer === null) {
      listener.ws.close(POLICY_VIOLATION, 'not a listen answer');
      return;
    }
    // Each connection answers its own copy, once (contract §6.1).
    if (!listener.unanswered.delete(answer.attempt_id)) return;
    this.messages.publish('listen.answer', {
      attemptId: answer.attempt_id,
      listenerId: listener.id,
      result: resultOf(answer),
    });
  }

  /** A closed connection: each copy it left unanswered was cut, and it leaves nothing behind. */
  private drop(listener: Listener): void {
    if (!this.listeners.delete(listener.id)) return;
    this.announce(listener, false);
    for (const attemptId of listener.unanswered) {
      this.messages.publish('listen.answer', {
        attemptId,
        listenerId: listener.id,
        result: { outcome: { error: 'connection_reset' }, latencyMs: 0, answerExcerpt: '' },
      });
    }
    listener.unanswered.clear();
    this.logger.log(`merchant ${listener.merchantId} stopped listening (${listener.id})`);
  }

  private announce(listener: Listener, open: boolean): void {
    this.messages.publish('listen.presence', {
      merchantId: listener.merchantId,
      listenerId: listener.id,
      open,
    });
  }

  /** Ends connections that stopped answering pings, and says again that the others are open. */
  private heartbeat(): void {
    for (const listener of this.listeners.values()) {
      if (!listener.alive) {
        listener.ws.terminate();
        this.drop(listener);
        continue;
      }
      listener.alive = false;
      listener.ws.ping();
      this.announce(listener, true);
    }
  }
}
