import { MinHeap } from './min-heap';

/** A first-in first-out queue with O(1) removal from the front. */
class Fifo<T> {
  private items: Array<T | undefined> = [];
  private head = 0;

  push(item: T): void {
    this.items.push(item);
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head += 1;
    // Drop the spent front once it is most of the array, so a long-lived queue does not grow.
    if (this.head > 64 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

interface Line<T> {
  inFlight: number;
  /** Due items, earliest due first. */
  due: MinHeap<T>;
  /** Its place in a ready queue, while it has one: the in-flight count it waits at, and a ticket. */
  queued: { level: number; ticket: number } | null;
}

interface Ticket {
  destination: string;
  ticket: number;
}

export interface FairLinesOptions<T> {
  /** Items in flight at once to one destination, at most. */
  share: number;
  /** A destination's share now, when it is less than `share` (one that keeps timing out). */
  shareOf?: (destination: string) => number;
  dueAt: (item: T) => number;
  /** Whether an item put in a line still stands; one gone stale is dropped when it comes out. */
  isCurrent: (item: T) => boolean;
}

/**
 * Due work in one line per destination, handed out so that no destination can crowd out another:
 * a destination never has more than `share` items in flight, and the next item to start comes
 * from the destination with the fewest in flight (the one waiting longest at that count, among
 * equals), its earliest due first. A destination that hangs thus holds at most its share, and a
 * free slot goes to a destination with nothing in flight before one that already has some.
 */
export class FairLines<T> {
  private readonly lines = new Map<string, Line<T>>();
  /** Per in-flight count, from 0 to share - 1: destinations with due items, in the order they got there. */
  private readonly ready: Array<Fifo<Ticket>>;
  private tickets = 0;

  constructor(private readonly options: FairLinesOptions<T>) {
    // With no share at all nothing would ever start.
    if (!Number.isInteger(options.share) || options.share < 1) {
      throw new RangeError(`share must be a positive integer, not ${options.share}`);
    }
    this.ready = Array.from({ length: options.share }, () => new Fifo<Ticket>());
  }

  /** Puts a due item in its destination's line. */
  add(destination: string, item: T): void {
    const line = this.lines.get(destination) ?? {
      inFlight: 0,
      due: new MinHeap<T>(this.options.dueAt),
      queued: null,
    };
    this.lines.set(destination, line);
    line.due.push(item);
    this.queue(destination, line);
  }

  /** The next item to start, counted in flight until `ended`; undefined when none may start. */
  take(): { destination: string; item: T } | undefined {
    for (const level of this.ready) {
      for (let next = level.shift(); next !== undefined; next = level.shift()) {
        const line = this.lines.get(next.destination);
        if (line === undefined || line.queued?.ticket !== next.ticket) continue;
        line.queued = null;
        const item = this.popCurrent(line);
        if (item !== undefined) line.inFlight += 1;
        this.queue(next.destination, line);
        if (item !== undefined) return { destination: next.destination, item };
      }
    }
    return undefined;
  }

  /** An item taken for `destination` is no longer in flight. */
  ended(destination: string): void {
    const line = this.lines.get(destination);
    if (line === undefined || line.inFlight === 0) return;
    line.inFlight -= 1;
    this.queue(destination, line);
  }

  inFlightTo(destination: string): number {
    return this.lines.get(destination)?.inFlight ?? 0;
  }

  /** Nothing due and nothing in flight, to any destination. */
  get isEmpty(): boolean {
    return this.lines.size === 0;
  }

  private popCurrent(line: Line<T>): T | undefined {
    for (let item = line.due.pop(); item !== undefined; item = line.due.pop()) {
      if (this.options.isCurrent(item)) return item;
    }
    return undefined;
  }

  /**
   * Keeps the destination's place in the ready queue of its in-flight count, or puts it at the
   * back of that queue when its count changed; forgets it when it has nothing due and nothing in
   * flight.
   */
  private queue(destination: string, line: Line<T>): void {
    for (
      let top = line.due.peek();
      top !== undefined && !this.options.isCurrent(top);
      top = line.due.peek()
    ) {
      line.due.pop();
    }
    const share = Math.min(this.options.share, this.options.shareOf?.(destination) ?? this.options.share);
    if (line.due.size === 0 || line.inFlight >= share) {
      line.queued = null;
      if (line.inFlight === 0) this.lines.delete(destination);
      return;
    }
    if (line.queued?.level === line.inFlight) return;
    this.tickets += 1;
    line.queued = { level: line.inFlight, ticket: this.tickets };
    this.ready[line.inFlight].push({ destination, ticket: this.tickets });
  }
}
