import type { MessagePort, TopicMap, Unsubscribe } from './message-port';

type Handler = (message: never) => void;

/**
 * The message port within one process: each message goes to every subscriber of its topic at
 * once, in the publisher's call. A publication with nobody subscribed costs one map lookup. A
 * subscriber that throws is reported and skipped, so it can neither fail the write that published
 * nor keep the message from the other subscribers. Within one process, both scopes hear the same,
 * and nothing is ever lost between publisher and subscriber (no gap).
 */
export class InProcessMessagePort<Topics extends TopicMap> implements MessagePort<Topics> {
  private readonly handlers = new Map<string, Set<Handler>>();

  constructor(private readonly onError: (topic: string, error: unknown) => void) {}

  publish<Topic extends keyof Topics & string>(topic: Topic, message: Topics[Topic]): void {
    const handlers = this.handlers.get(topic);
    if (handlers === undefined) return;
    // A copy: who subscribes or leaves during a publication does so from the next one on.
    for (const handler of [...handlers]) {
      try {
        (handler as (message: Topics[Topic]) => void)(message);
      } catch (error) {
        this.onError(topic, error);
      }
    }
  }

  subscribe<Topic extends keyof Topics & string>(
    topic: Topic,
    handler: (message: Topics[Topic]) => void,
  ): Unsubscribe {
    // Wrapped, so that one handler subscribed twice is two subscriptions, each stopped on its own.
    const entry: Handler = (message) => handler(message);
    const handlers = this.handlers.get(topic) ?? new Set<Handler>();
    handlers.add(entry);
    this.handlers.set(topic, handlers);
    return () => {
      handlers.delete(entry);
      if (handlers.size === 0 && this.handlers.get(topic) === handlers) this.handlers.delete(topic);
    };
  }

  onGap(): Unsubscribe {
    return () => undefined;
  }
}
