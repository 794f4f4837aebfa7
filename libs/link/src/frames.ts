import type { ErrorBody } from '@tps/domain';

/** The frames of a link: a request waits for its reply; a notice expects none. */
export type Frame =
  | { f: 'req'; id: number; body: unknown }
  | { f: 'res'; id: number; ok: true; result: unknown }
  | { f: 'res'; id: number; ok: false; error: ErrorBody }
  | { f: 'msg'; body: unknown };

export function parseFrame(raw: string): Frame | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null || !('f' in value)) return undefined;
    return value as Frame;
  } catch {
    return undefined;
  }
}
