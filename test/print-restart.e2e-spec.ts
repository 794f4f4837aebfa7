import { Stack, WebhookReceiver, poll } from '@tps/testing';
import { describeOnStores } from './stores';

type Job = Record<string, any>;

describeOnStores('the simulator killed while a job prints', (store) => {
  let stack: Stack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    stack = await Stack.start({ store });
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  it('prints the job again after the restart, then the next one, and calls back once each', async () => {
    const client = stack.client();
    // Realistic pace: the paper takes 1.5 s to come out, time enough to crash in the middle.
    await client.patch('/sandbox/terminals/SIM0000002', { pace: 'realistic' });
    const path = '/terminal/v1/SIM0000002/print';
    const create = async (ref: string): Promise<Job> => {
      const response = await client.post<Job>(path, {
        commands: [{ type: 'text', value: ref }],
        webhookUrl: receiver.url(`/hook/${ref}`),
        externalReference: ref,
      });
      expect(response.status).toBe(202);
      return response.body;
    };
    const first = await create('first');
    const second = await create('second');
    await poll(
      'the first job in progress',
      async () =>
        (await client.get<Job>(`${path}/${first.printJobId}`)).body.status === 'IN_PROGRESS'
          ? true
          : undefined,
      10_000,
    );

    await stack.simulator?.kill();
    await stack.startSimulator();

    await receiver.waitFor((all) => all.length >= 2, 15_000);
    const done = await poll(
      'both jobs printed',
      async () => {
        const jobs = await Promise.all(
          [first, second].map(async (job) => (await client.get<Job>(`${path}/${job.printJobId}`)).body),
        );
        return jobs.every((job) => job.status === 'COMPLETED') ? jobs : undefined;
      },
      15_000,
    );
    expect(done.map((job) => job.printedText)).toEqual(['first', 'second']);
    expect(receiver.bodies().map((body) => body.externalReference)).toEqual(['first', 'second']);
    expect(Date.parse(done[1].updatedAt)).toBeGreaterThan(Date.parse(done[0].updatedAt));
  });
});
