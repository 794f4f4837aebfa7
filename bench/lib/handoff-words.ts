/** What both ends of a bare hand-off (handoff-floor.ts) share. */

/**
 * How the holder is reached: `stored`, a row and a word each way, as the service's routing;
 * `words`, the request and the reply in the words alone, no row; `direct`, a TCP connection
 * between the two processes, no database at all.
 */
export type HolderKind = 'stored' | 'words' | 'direct';

export const FLOOR_CHANNEL = 'handoff_floor';

/** The holder's answer: the request's id and the reply, as the service's reply word carries it. */
export const answerWord = (id: string, reply: string): string =>
  `{"id":${JSON.stringify(id)},"reply":${reply}}`;
