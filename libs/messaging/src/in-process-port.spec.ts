import { InProcessMessagePort } from './in-process-port';

interface Topics {
  'thing.stored': { id: string };
  'other.stored': { n: number };
}

function port() {
  const errors: Array<{ topic: string; error: unknown }> = [];
  return { port: new InProcessMessagePort<Topics>((topic, error) => errors.push({ topic, error })), errors };
}

describe('InProcessMessagePort', () => {
  it('gives each message to every subscriber of its topic, in order, and to no other topic', () => {
    const { port: bus } = port();
    const first: string[] = [];
    const second: string[] = [];
    const other: number[] = [];
    bus.subscribe('thing.stored', ({ id }) => first.push(id));
    bus.subscribe('thing.stored', ({ id }) => second.push(id));
    bus.subscribe('other.stored', ({ n }) => other.push(n));
    bus.publish('thing.stored', { id: 'a' });
    bus.publish('thing.stored', { id: 'b' });
    expect(first).toEqual(['a', 'b']);
    expect(second).toEqual(['a', 'b']);
    expect(other).toEqual([]);
  });

  it("delivers within the publisher's call", () => {
    const { port: bus } = port();
    const seen: string[] = [];
    bus.subscribe('thing.stored', ({ id }) => seen.push(id));
    bus.publish('thing.stored', { id: 'a' });
    expect(seen).toEqual(['a']);
  });

  it('publishes with nobody subscribed without error', () => {
    const { port: bus, errors } = port();
    expect(() => bus.publish('thing.stored', { id: 'a' })).not.toThrow();
    expect(errors).toEqual([]);
  });

  it('stops a subscription, once and only that one, even for the same handler subscribed twice', () => {
    const { port: bus } = port();
    const seen: string[] = [];
    const handler = ({ id }: { id: string }) => seen.push(id);
    const stop = bus.subscribe('thing.stored', handler);
    bus.subscribe('thing.stored', handler);
    bus.publish('thing.stored', { id: 'a' });
    stop();
    stop();
    bus.publish('thing.stored', { id: 'b' });
    expect(seen).toEqual(['a', 'a', 'b']);
  });

  it('takes a subscription again after the last one of a topic stopped', () => {
    const { port: bus } = port();
    const seen: string[] = [];
    bus.subscribe('thing.stored', () => undefined)();
    bus.subscribe('thing.stored', ({ id }) => seen.push(id));
    bus.publish('thing.stored', { id: 'a' });
    expect(seen).toEqual(['a']);
  });

  it('reports a subscriber that throws, and still tells the others; the publisher sees nothing', () => {
    const { port: bus, errors } = port();
    const seen: string[] = [];
    bus.subscribe('thing.stored', () => {
      throw new Error('broken subscriber');
    });
    bus.subscribe('thing.stored', ({ id }) => seen.push(id));
    expect(() => bus.publish('thing.stored', { id: 'a' })).not.toThrow();
    expect(seen).toEqual(['a']);
    expect(errors).toEqual([{ topic: 'thing.stored', error: new Error('broken subscriber') }]);
  });

  it('counts who subscribes or leaves during a publication from the next one on', () => {
    const { port: bus } = port();
    const seen: string[] = [];
    bus.subscribe('thing.stored', ({ id }) => {
      seen.push(`first ${id}`);
      stopLate();
      if (id === 'a') bus.subscribe('thing.stored', ({ id: later }) => seen.push(`joined ${later}`));
    });
    const stopLate = bus.subscribe('thing.stored', ({ id }) => seen.push(`late ${id}`));
    bus.publish('thing.stored', { id: 'a' });
    bus.publish('thing.stored', { id: 'b' });
    expect(seen).toEqual(['first a', 'late a', 'first b', 'joined b']);
  });
});
