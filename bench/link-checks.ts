/**
 * What checking link messages costs, per message (run by hand: `npm run build && node
 * dist/bench/link-checks.js`). The messages are those of one sync charge on the Local form, built by
 * the terminal runtime that answers it: the operation request, its reply with the four events, and
 * the `stored` notice. Each is timed as its receiving end checks it (frame, then body) on the parsed
 * value; the JSON.parse the link did before the checks too is shown beside it for scale.
 */
import {
  FrameSchema,
  MessageCheck,
  SIMULATOR_CONTROL_SIDE,
  TERMINAL_UPLINK_SIDE,
  terminalReply,
  type CheckResult,
  type OperationReply,
  type UplinkNotice,
} from '@tps/link';
import { harness, order } from '../apps/terminal-simulator/src/runtime/testing/runtime-harness';

const ROUNDS = 15;
const PER_ROUND = 20_000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Median µs per call of `work` over ROUNDS rounds, after a warm-up round. */
function microsPerCall(work: () => unknown): number {
  const rounds: number[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < PER_ROUND; i++) work();
    const micros = Number(process.hrtime.bigint() - start) / 1000 / PER_ROUND;
    if (round > 0) rounds.push(micros);
  }
  return median(rounds);
}

function expectOk(result: CheckResult<unknown>): void {
  if (!result.ok) throw new Error(`a real message was refused: ${result.refusal.message}`);
}

async function main(): Promise<void> {
  const { runtime, timers } = harness();
  const charge = order('00', 'sync');
  const replying = runtime.operate(charge);
  await timers.runAll();
  const reply: OperationReply = await replying;
  const operation = { type: 'operation' as const, order: charge };
  const notice: UplinkNotice = {
    type: 'stored',
    merchantId: charge.merchantId,
    clientTransactionId: charge.clientTransactionId,
    eventIds: reply.events.map((link) => link.event.event_id),
  };
  const messages = [
    {
      name: 'operation request (control link)',
      raw: JSON.stringify({
        f: 'req',
        id: 1,
        body: { type: 'terminal', serial: 'SIM0000001', request: operation },
      }),
      body: SIMULATOR_CONTROL_SIDE.requests,
    },
    {
      name: `operation reply (${reply.events.length} events)`,
      raw: JSON.stringify({ f: 'res', id: 1, ok: true, result: reply }),
      body: terminalReply(operation),
    },
    {
      name: 'stored notice',
      raw: JSON.stringify({ f: 'msg', body: notice }),
      body: TERMINAL_UPLINK_SIDE.notices,
    },
  ];

  const frames = new MessageCheck('link frame', FrameSchema);
  let total = 0;
  for (const { name, raw, body } of messages) {
    const frame: unknown = JSON.parse(raw);
    const inner =
      (frame as { body?: unknown; result?: unknown }).body ?? (frame as { result?: unknown }).result;
    expectOk(frames.check(frame));
    expectOk(body.check(inner));
    const parse = microsPerCall(() => JSON.parse(raw));
    // What the link adds on receipt: the frame's check and the body's, on the parsed value.
    const checks = microsPerCall(() => {
      frames.check(frame);
      body.check(inner);
    });
    total += checks;
    console.log(
      `${name.padEnd(36)} ${String(raw.length).padStart(6)} B  checks ${checks.toFixed(2)} µs  (JSON.parse of it ${parse.toFixed(2)} µs)`,
    );
  }
  console.log(`checks for one sync charge's ${messages.length} messages: ${total.toFixed(2)} µs`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
