/**
 * A reply up to this size (as JSON) goes with the word that it is stored, so that its caller need
 * not read it; a larger one is read from the store. A word's payload must stay under
 * MAX_PAYLOAD_BYTES (7900) with its envelope (ids, topic: about 150 bytes); a sync charge's reply,
 * its four events with the order and the outcome, is about 4200.
 */
export const REPLY_IN_WORD_BYTES = 7000;

/** The topics whose words the routing store's own statements send, with the write they tell of. */
export type RoutingTopic = 'route.handed' | 'route.answered';

/** How a word on a routing topic starts (PostgresMessagePort.wordStart): then its message as JSON, then `}`. */
export type WordStart = (topic: RoutingTopic) => string;

/**
 * The message of `route.answered` as JSON, around the reply's JSON (serialised once, for the row
 * and for the word): with the reply when it is small.
 */
export function answeredMessage(id: string, replyJson: string): string {
  const small = Buffer.byteLength(replyJson) <= REPLY_IN_WORD_BYTES;
  return small ? `{"id":${JSON.stringify(id)},"reply":${replyJson}}` : `{"id":${JSON.stringify(id)}}`;
}
