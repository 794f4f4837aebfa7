import { ContractError } from '@tps/domain';
import type { HandedRequest, LinkKind, RoutedReply, RoutedRequestStore } from './routing-ports';

/** Sends a request over a link this replica holds; TER-001 when it holds none. */
export type SendHere = (
  link: LinkKind,
  serial: string,
  request: unknown,
  timeoutMs: number,
) => Promise<unknown>;

/**
 * A reply up to this size (as JSON) goes with the word that it is stored, so that its caller need
 * not read it; a larger one is read from the store. A word's payload must stay under
 * MAX_PAYLOAD_BYTES (7900) with its envelope (ids, topic: about 150 bytes); a sync charge's reply,
 * its four events with the order and the outcome, is about 4200.
 */
export const REPLY_IN_WORD_BYTES = 7000;

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
 * a poll when that word was lost), sends each over the link it holds, stores the reply for the
 * replica that waits for it, and then tells that it is stored, with the reply when it is small.
 */
export class RoutedRequestWorker {
  constructor(
    private readonly store: RoutedRequestStore,
    private readonly sendHere: SendHere,
    private readonly answered: (id: string, reply: RoutedReply | undefined) => void,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Takes what is pending for this replica: one request by id, or all (`undefined`). */
  take(id: string | undefined): void {
    this.store
      .claim(id)
      .then((handed) => handed.forEach((request) => void this.run(request)))
      .catch(this.onError);
  }

  private async run(handed: HandedRequest): Promise<void> {
    const reply = await this.sendHere(handed.link, handed.serial, handed.request, handed.timeoutMs).then(
      (ok): RoutedReply => ({ ok }),
      replyOf,
    );
    try {
      // Told only once stored, and only to a caller that still waits.
      if (!(await this.store.answer(handed.id, reply))) return;
      const small = Buffer.byteLength(JSON.stringify(reply)) <= REPLY_IN_WORD_BYTES;
      this.answered(handed.id, small ? reply : undefined);
    } catch (error) {
      this.onError(error);
    }
  }
}
