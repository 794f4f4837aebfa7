/**
 * What a topic map looks like: each topic's name and the message it carries. Messages are plain
 * data, small (ids, states, at most one event), never a handle: an implementation that crosses
 * processes sends them as JSON.
 */
export type TopicMap = object;

/** Stops a subscription; calling it again does nothing. */
export type Unsubscribe = () => void;

/**
 * Whose publications a subscriber hears: this process's only (the default: what it counts or logs
 * is this process's share), or those of every process on the same database (what a console or a
 * waiter must see wherever it was stored).
 */
export type MessageScope = 'process' | 'cluster';

/**
 * How one part of the service tells others that something was stored, without knowing who
 * listens or in which process. Publish only after the write has committed, and never inside a
 * write: a subscriber may read the store at once and must find what it was told of.
 *
 * Delivery is at most once, in publication order for each topic within a process; a subscriber
 * that must not miss anything also reads the store (as the dispatcher does at start), and reads
 * it again when told of a gap.
 */
export interface MessagePort<Topics extends TopicMap> {
  publish<Topic extends keyof Topics & string>(topic: Topic, message: Topics[Topic]): void;
  subscribe<Topic extends keyof Topics & string>(
    topic: Topic,
    handler: (message: Topics[Topic]) => void,
    scope?: MessageScope,
  ): Unsubscribe;
  /**
   * Called when messages from other processes may have been lost (a listener that linked again):
   * whoever waits for one reads the store instead. Never called by a port within one process.
   */
  onGap(handler: () => void): Unsubscribe;
}
