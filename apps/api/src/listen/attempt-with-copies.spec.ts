import type { PostResult, WebhookPost } from '@tps/delivery';
import { attemptResultOf, attemptWithCopies, NOBODY_TO_SEND_TO, type CopyPorts } from './attempt-with-copies';

const status = (statusCode: number, latencyMs = 3): PostResult => ({
  outcome: { statusCode },
  latencyMs,
  answerExcerpt: `answered ${statusCode}`,
});
const failed = (error: 'timeout' | 'connection_refused' | 'connection_reset'): PostResult => ({
  outcome: { error },
  latencyMs: 7,
  answerExcerpt: '',
});
const answer = ({ outcome, latencyMs }: PostResult) => ({ outcome, latencyMs });

/** In-memory ports: what was sent where, and the answers each side gives. */
function ports(options: {
  listeners: string[];
  refused?: string[];
  direct?: PostResult;
  copies?: PostResult[];
  /** Answers that come only after the URL's (after `copies`, those that came before it). */
  lateCopies?: Promise<PostResult[]>;
}): CopyPorts & { sent: { direct: WebhookPost[]; copies: Array<readonly string[]> } } {
  const sent = { direct: [] as WebhookPost[], copies: [] as Array<readonly string[]> };
  return {
    sent,
    listenersOf: () => options.listeners,
    refusal: (url) => Promise.resolve(options.refused?.includes(url) ? 'a non-public address' : null),
    direct: (post) => {
      sent.direct.push(post);
      return Promise.resolve(options.direct ?? status(200));
    },
    copies: (_merchant, _post, listenerIds) => {
      sent.copies.push(listenerIds);
      const answers = options.copies ?? listenerIds.map(() => status(200));
      if (options.lateCopies === undefined) return { answered: answers, all: Promise.resolve(answers) };
      return { answered: answers, all: options.lateCopies.then((late) => [...answers, ...late]) };
    },
  };
}

const POST: WebhookPost = { url: 'https://receiver.example/hook', body: '{}', headers: {} };

describe("attemptResultOf: which answer is the attempt's (contract §6.1)", () => {
  it("is the URL's when the event has a usable one, whatever the listeners answered; theirs beside it", () => {
    expect(attemptResultOf(status(503), [status(200), failed('timeout')])).toEqual({
      ...status(503),
      listeners: [answer(status(200)), answer(failed('timeout'))],
    });
  });

  it('is the first 2xx of the listeners when there is no usable URL', () => {
    const copies = [status(500, 1), failed('connection_reset'), status(204, 9), status(200, 2)];
    expect(attemptResultOf(null, copies)).toEqual({ ...status(204, 9), listeners: copies.map(answer) });
  });

  it('is the first answer when no listener answered 2xx', () => {
    const copies = [failed('timeout'), status(500)];
    expect(attemptResultOf(null, copies)).toEqual({ ...failed('timeout'), listeners: copies.map(answer) });
  });

  it('is a refused connection (retried) with no URL and no answer', () => {
    expect(attemptResultOf(null, [])).toEqual(NOBODY_TO_SEND_TO);
  });
});

describe('attemptWithCopies', () => {
  it('with nobody listening, is the attempt to the URL alone, as before listen existed', async () => {
    const world = ports({ listeners: [], direct: status(202) });
    expect(await attemptWithCopies(world, 'm1', POST)).toEqual(status(202));
    expect(world.sent).toEqual({ direct: [POST], copies: [] });
  });

  it('with nobody listening and no URL, sends nothing and is retried', async () => {
    const world = ports({ listeners: [] });
    expect(await attemptWithCopies(world, 'm1', { ...POST, url: '' })).toEqual(NOBODY_TO_SEND_TO);
    expect(world.sent).toEqual({ direct: [], copies: [] });
  });

  it('sends to the URL and one copy to every listener; the URL answers the attempt', async () => {
    const world = ports({ listeners: ['a', 'b'], direct: status(500), copies: [status(200), status(200)] });
    const result = await attemptWithCopies(world, 'm1', POST);
    expect(result.outcome).toEqual({ statusCode: 500 });
    expect(result.listeners).toEqual([answer(status(200)), answer(status(200))]);
    expect(world.sent).toEqual({ direct: [POST], copies: [['a', 'b']] });
  });

  it("ends with the URL's answer: a listener still out answers beside it later, never delaying it", async () => {
    let answerLate: (late: PostResult[]) => void = () => undefined;
    const lateCopies = new Promise<PostResult[]>((resolve) => (answerLate = resolve));
    const world = ports({ listeners: ['a', 'b'], direct: status(200), copies: [status(202)], lateCopies });
    const { laterListeners, ...result } = await attemptWithCopies(world, 'm1', POST);
    expect(result).toEqual({ ...status(200), listeners: [answer(status(202))] });
    answerLate([failed('timeout')]);
    expect(await laterListeners).toEqual([answer(failed('timeout'))]);
  });

  it('with no URL, the listeners answer the attempt', async () => {
    const world = ports({ listeners: ['a'], copies: [status(200)] });
    const result = await attemptWithCopies(world, 'm1', { ...POST, url: '' });
    expect(result).toEqual({ ...status(200), listeners: [answer(status(200))] });
    expect(world.sent.direct).toEqual([]);
  });

  it('with a URL the policy refuses, nothing goes to it and the listeners answer the attempt', async () => {
    const world = ports({ listeners: ['a', 'b'], refused: [POST.url], copies: [status(500), status(204)] });
    const result = await attemptWithCopies(world, 'm1', POST);
    expect(result.outcome).toEqual({ statusCode: 204 });
    expect(world.sent.direct).toEqual([]);
  });
});
