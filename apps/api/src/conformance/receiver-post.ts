import { Agent } from 'undici';
import { AttemptAbandoned, guardedConnector, postWebhook, type DestinationRules } from '@tps/delivery';
import type { PostToReceiver } from './run-ports';

/**
 * Posts to the URL under test as a webhook delivery does (contract §6): no redirect followed, the
 * profile's address rules checked again when connecting. Only to `url`: the run has no other way out.
 */
export function receiverPost(
  url: string,
  rules: DestinationRules,
): { post: PostToReceiver; connections: Agent; close: () => void } {
  const connections = new Agent({ connect: guardedConnector(rules), connections: 128 });
  const post: PostToReceiver = async (body, headers, timeoutMs, signal) => {
    try {
      const result = await postWebhook(
        { url, body, headers },
        { timeoutMs, shutdown: signal, dispatcher: connections },
      );
      const { outcome } = result;
      return 'statusCode' in outcome
        ? { status: outcome.statusCode, error: null, latencyMs: result.latencyMs }
        : { status: null, error: outcome.error, latencyMs: result.latencyMs };
    } catch (error) {
      if (error instanceof AttemptAbandoned) {
        return { status: null, error: "cut: the run's time ran out", latencyMs: 0 };
      }
      throw error;
    }
  };
  return { post, connections, close: () => void connections.close() };
}
