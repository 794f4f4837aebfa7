/**
 * What a topic map looks like: each topic's name and the message it carries. Messages are plain
 * data, small (ids, states, at most one event), never a handle: an implementation that crosses
 * processes sends them as JSON.
 */
export type TopicMap = object;

/** Stops a subscription; calling it again does nothing. */
export type Unsubscribe = () => void;

/**
 * How one part of the service tells others that something was stored, without knowing who
 * listens or in which process. Publish only after the write has committed, and never inside a
 * write: a subscriber may read the store at once and must find what it was told of.
 *
 * Delivery is at most once, in publication order for each topic within a process; a subscriber
 * that must not miss anything also reads the store (as the dispatcher does at start).
 */
export interface MessagePort<Topics extends TopicMap> {
  publish<Topic extends keyof Topics & string>(topic: Topic, message: Topics[Topic]): void;
  subscribe<Topic extends keyof Topics & string>(
    topic: Topic,
    handler: (message: Topics[Topic]) => void,
  ): Unsubscribe;
}
