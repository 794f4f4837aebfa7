import { ContractError } from '@tps/domain';
import type { HandedRequest, LinkKind, RoutedReply, RoutedRequestStore } from './routing-ports';

/** Sends a request over a link this replica holds; TER-001 when it holds none. */
export type SendHere = (
  link: LinkKind,
  serial: string,
  request: unknown,
  timeoutMs: number,
) => Promise<unknown>;

function replyOf(error: unknown): RoutedReply {
  // Anything but the contract's own answer came after the request was sent: its outcome is unknown.
  const known =
    error instanceof ContractError
      ? error
      : new ContractError(
          'TER-002',
          'the replica that holds the link failed to relay the reply; the outcome is unknown',
        );
  return { error: known.toBody() };
}

/**
 * The other side of the router: takes the requests handed to this replica (told by id, or found by
 * a poll when that word was lost), sends each over the link it holds, and stores the reply for the
 * replica that waits for it (the store's statement tells that replica, once stored).
 */
export class RoutedRequestWorker {
  /** Claims under way, and requests taken whose reply is not stored yet. */
  private busy = 0;

  constructor(
    private readonly store: RoutedRequestStore,
    private readonly sendHere: SendHere,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Takes what is pending for this replica: one request by id, or all (`undefined`). */
  take(id: string | undefined): void {
    this.busy++;
    this.store
      .claim(id)
      .then((handed) => handed.forEach((request) => void this.run(request)))
      .catch(this.onError)
      .finally(() => this.busy--);
  }

  /** Claims and taken requests not yet answered: a replica that drains waits for them. */
  get inFlight(): number {
    return this.busy;
  }

  private async run(handed: HandedRequest): Promise<void> {
    this.busy++;
    try {
      const reply = await this.sendHere(handed.link, handed.serial, handed.request, handed.timeoutMs).then(
        (ok): RoutedReply => ({ ok }),
        replyOf,
      );
      // A caller that no longer waits has taken its row away: then nothing is stored, nor told.
      await this.store.answer(handed.id, reply).catch(this.onError);
    } finally {
      this.busy--;
    }
  }
}
