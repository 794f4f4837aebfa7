import { randomUUID } from 'node:crypto';
import { PeriodicTask } from '@tps/background';
import { InProcessMessagePort } from './in-process-port';
import type { MessagePort, MessageScope, TopicMap, Unsubscribe } from './message-port';
import { TopicWants } from './topic-wants';

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
export const MAX_PAYLOAD_BYTES = 7900;

/** A LISTEN session, open until closed or lost. */
export interface ListenSession {
  close(): Promise<void>;
}

/** How the port reaches the database: one session that listens, one that notifies. */
export interface NotifyConnector {
  /** Opens the listening session; `onLost` is called once if it breaks. */
  listen(onPayload: (payload: string) => void, onLost: (error: unknown) => void): Promise<ListenSession>;
  /** Sends the payloads, in order, in one statement of the notifying session. */
  notify(payloads: string[]): Promise<void>;
  /** Ends the notifying session. */
  close(): Promise<void>;
}

export interface PostgresPortOptions<Topics extends TopicMap> {
  /** Topics told to other processes; every other topic stays in this one (a secret never leaves it). */
  crossing: ReadonlyArray<keyof Topics & string>;
  onError: (topic: string, error: unknown) => void;
  /**
   * Crossing topics sent only while another process has a subscriber of scope `cluster` for them
   * (a console watching): each process says which it wants, and a NOTIFY no one wants is not sent.
   */
  onDemand?: ReadonlyArray<keyof Topics & string>;
  /** A listener that broke: how long before it listens again. */
  relistenMs?: number;
  /** How often a process says again which topics it wants (their word lasts three times this). */
  wantsEveryMs?: number;
  now?: () => number;
}

/** What crosses: who published it (to skip one's own), a sequence (payloads must be unique), the message. */
interface Envelope {
  o: string;
  n: number;
  t: string;
  m: unknown;
}

const RELISTEN_MS = 500;
const WANTS_EVERY_MS = 2000;
/** The topic of a process's word on which on-demand topics it wants; no subscriber's topic. */
const WANTS_TOPIC = '~wants';

/**
 * The message port across the processes that share one PostgreSQL database (contract §16). This
 * process's subscribers hear its publications at once, as within one process; a crossing topic is
 * also sent by NOTIFY, after the write it tells of has committed and never inside it (a commit that
 * notifies holds a cluster-wide lock until it is flushed), from a session of its own, batched: what
 * is published in one turn of the event loop goes in one statement, and what is published while one
 * NOTIFY is on its way goes in the next. Subscribers of scope `cluster` hear
 * other processes' messages from a session that only listens. A listener that broke has lost what was
 * sent meanwhile: once it listens again, the gap is told, so that waiters read the store.
 *
 * An on-demand topic (what a console shows) crosses only while another process has a subscriber of
 * scope `cluster` for it: each process says which it wants when that changes and every few seconds,
 * so that a charge costs no NOTIFY while no console watches elsewhere. A process that may have
 * missed a word (just started, or its listener broke) sends them all until each was said again.
 */
export class PostgresMessagePort<Topics extends TopicMap> implements MessagePort<Topics> {
  private readonly origin = randomUUID();
  /** How every word of this process begins (the envelope's first field): heard back, it is skipped unread. */
  private readonly ownStart = `{"o":${JSON.stringify(this.origin)},`;
  /** Every subscriber, told of this process's publications. */
  private readonly own: InProcessMessagePort<Topics>;
  /** Subscribers of scope `cluster`, told of the other processes' publications. */
  private readonly others: InProcessMessagePort<Topics>;
  private readonly crossing: ReadonlySet<string>;
  private readonly onDemand: ReadonlySet<string>;
  /** What the other processes want of the on-demand topics. */
  private readonly othersWant: TopicWants;
  /** This process's subscribers of scope `cluster` to each on-demand topic. */
  private readonly ownWants = new Map<string, number>();
  private readonly wantsTimer: PeriodicTask;
  /**
   * Until then every on-demand topic is sent: this process may not have heard every other's word
   * yet (it just started, or its listener broke), and each says it again within that time.
   */
  private unsureUntil: number;
  private readonly now: () => number;
  private readonly wantsLastMs: number;
  private readonly gapHandlers = new Set<() => void>();
  private queue: string[] = [];
  private sending = false;
  private sequence = 0;
  private session: ListenSession | undefined;
  /** Counts listening sessions, so that a late word from an older one changes nothing. */
  private generation = 0;
  private relistenTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly connector: NotifyConnector,
    private readonly options: PostgresPortOptions<Topics>,
  ) {
    this.own = new InProcessMessagePort<Topics>(options.onError);
    this.others = new InProcessMessagePort<Topics>(options.onError);
    this.crossing = new Set(options.crossing);
    this.onDemand = new Set(options.onDemand ?? []);
    this.now = options.now ?? Date.now;
    const wantsEveryMs = options.wantsEveryMs ?? WANTS_EVERY_MS;
    this.wantsLastMs = 3 * wantsEveryMs;
    this.othersWant = new TopicWants(this.wantsLastMs, this.now);
    this.unsureUntil = this.now() + this.wantsLastMs;
    this.wantsTimer = new PeriodicTask({
      name: 'topic-wants',
      everyMs: wantsEveryMs,
      run: () => {
        if (this.ownWants.size > 0) this.sayWants();
      },
      failed: (name, error) => options.onError(name, error),
    }).start();
  }

  /** Listens; resolves once listening, or once the first attempt failed (it is tried again). */
  async start(): Promise<void> {
    await this.listen(false);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.relistenTimer);
    await this.wantsTimer.stop();
    await this.session?.close().catch(() => undefined);
    await this.connector.close().catch(() => undefined);
  }

  publish<Topic extends keyof Topics & string>(topic: Topic, message: Topics[Topic]): void {
    this.own.publish(topic, message);
    if (!this.crossing.has(topic) || this.stopped || !this.wantedElsewhere(topic)) return;
    this.cross(topic, message);
  }

  private wantedElsewhere(topic: string): boolean {
    return !this.onDemand.has(topic) || this.now() < this.unsureUntil || this.othersWant.wanted(topic);
  }

  /**
   * The start of a word on a crossing topic that a statement of the caller's own sends, by
   * `pg_notify` on MESSAGE_CHANNEL, in the same transaction as the write it tells of: the word is
   * this, then the message as JSON, then `}`. Only for a write that is no money write (a commit that
   * notifies holds a cluster-wide lock until it is flushed): one statement then does what two did.
   * This process's own subscribers are not told of it; the caller keeps it under MAX_PAYLOAD_BYTES.
   */
  wordStart(topic: keyof Topics & string): string {
    // The envelope's fields in the order JSON.stringify gives them, so that it starts as `ownStart`.
    return `${this.ownStart}"n":${this.sequence++},"t":${JSON.stringify(topic)},"m":`;
  }

  private cross(topic: string, message: unknown): void {
    const envelope: Envelope = { o: this.origin, n: this.sequence++, t: topic, m: message };
    const payload = JSON.stringify(envelope);
    if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
      this.options.onError(
        topic,
        new Error(`a message of ${payload.length} characters is too long to cross`),
      );
      return;
    }
    this.queue.push(payload);
    if (this.sending) return;
    this.sending = true;
    // What the rest of this turn of the event loop publishes (a charge's events, and what follows
    // from them) goes in the same statement.
    setImmediate(() => this.send());
  }

  subscribe<Topic extends keyof Topics & string>(
    topic: Topic,
    handler: (message: Topics[Topic]) => void,
    scope: MessageScope = 'process',
  ): Unsubscribe {
    const stopOwn = this.own.subscribe(topic, handler);
    if (scope === 'process') return stopOwn;
    const stopOthers = this.others.subscribe(topic, handler);
    const stopWanting = this.onDemand.has(topic) ? this.want(topic) : () => undefined;
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      stopOwn();
      stopOthers();
      stopWanting();
    };
  }

  /** Counts a subscriber of scope `cluster` to an on-demand topic; the others are told at once of a change. */
  private want(topic: string): () => void {
    const count = this.ownWants.get(topic) ?? 0;
    this.ownWants.set(topic, count + 1);
    if (count === 0) this.sayWants();
    return () => {
      const left = (this.ownWants.get(topic) ?? 1) - 1;
      if (left > 0) this.ownWants.set(topic, left);
      else {
        this.ownWants.delete(topic);
        this.sayWants();
      }
    };
  }

  private sayWants(): void {
    if (!this.stopped) this.cross(WANTS_TOPIC, [...this.ownWants.keys()]);
  }

  onGap(handler: () => void): Unsubscribe {
    const entry = (): void => handler();
    this.gapHandlers.add(entry);
    return () => this.gapHandlers.delete(entry);
  }

  /** Sends what is queued in one statement; what is queued meanwhile goes next. */
  private send(): void {
    if (this.stopped) return;
    const batch = this.queue;
    this.queue = [];
    this.connector
      .notify(batch)
      .catch((error: unknown) => this.options.onError('notify', error))
      .finally(() => {
        if (this.queue.length > 0 && !this.stopped) this.send();
        else this.sending = false;
      });
  }

  private async listen(again: boolean): Promise<void> {
    if (this.stopped) return;
    const generation = ++this.generation;
    try {
      const session = await this.connector.listen(
        (payload) => this.receive(payload),
        (error) => this.lost(generation, error),
      );
      if (this.stopped || generation !== this.generation) {
        await session.close();
        return;
      }
      this.session = session;
      if (again) {
        // Words said while not listening are lost: unsure again until each is said again.
        this.unsureUntil = this.now() + this.wantsLastMs;
        this.tellGap();
      }
    } catch (error) {
      this.lost(generation, error);
    }
  }

  /** The session of `generation` broke (or never opened): listen again later, once. */
  private lost(generation: number, error: unknown): void {
    if (generation !== this.generation || this.stopped) return;
    this.generation++;
    this.session = undefined;
    this.options.onError('listen', error);
    this.relisten();
  }

  private relisten(): void {
    if (this.stopped) return;
    clearTimeout(this.relistenTimer);
    this.relistenTimer = setTimeout(() => void this.listen(true), this.options.relistenMs ?? RELISTEN_MS);
    this.relistenTimer.unref();
  }

  private tellGap(): void {
    for (const handler of [...this.gapHandlers]) {
      try {
        handler();
      } catch (error) {
        this.options.onError('gap', error);
      }
    }
  }

  private receive(payload: string): void {
    // Every process hears its own words too: those are skipped before they are parsed (a reply
    // told with its word is kilobytes long).
    if (payload.startsWith(this.ownStart)) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(payload) as Envelope;
    } catch (error) {
      this.options.onError('listen', error);
      return;
    }
    if (envelope.t === WANTS_TOPIC) {
      if (Array.isArray(envelope.m)) this.othersWant.heard(envelope.o, envelope.m.map(String));
      return;
    }
    if (!this.crossing.has(envelope.t)) return;
    this.others.publish(envelope.t as keyof Topics & string, envelope.m as Topics[keyof Topics & string]);
  }
}
