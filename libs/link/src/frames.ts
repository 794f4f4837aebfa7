import { Type, type Static } from '@sinclair/typebox';
import { ErrorBodySchema, closed } from './schema/contract-shapes';
import { MessageCheck, type CheckResult } from './schema/message-check';

const id = Type.Integer({ minimum: 1 });

/** The frames of a link: a request waits for its reply; a notice expects none. */
export const FrameSchema = Type.Union([
  Type.Object({ f: Type.Literal('req'), id, body: Type.Unknown() }, closed),
  /** A reply without a value (the handler answered nothing) travels without `result`. */
  Type.Object(
    { f: Type.Literal('res'), id, ok: Type.Literal(true), result: Type.Optional(Type.Unknown()) },
    closed,
  ),
  Type.Object({ f: Type.Literal('res'), id, ok: Type.Literal(false), error: ErrorBodySchema }, closed),
  Type.Object({ f: Type.Literal('msg'), body: Type.Unknown() }, closed),
]);
export type Frame = Static<typeof FrameSchema>;

const FRAME = new MessageCheck('link frame', FrameSchema);

/** A frame as received: refused when it is not JSON, or not a frame. */
export function parseFrame(raw: string): CheckResult<Frame> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, refusal: { code: 'PAR-001', param: '', message: 'link frame: not JSON' } };
  }
  return FRAME.check(value);
}
