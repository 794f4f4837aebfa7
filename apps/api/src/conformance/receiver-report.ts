import { request, type Dispatcher } from 'undici';
import type { ProcessedReport, ReadReport } from './run-ports';

/** A report holds ids and counts only: anything larger is not one. */
const MAX_REPORT_BYTES = 256 * 1024;

/** The answer's text, or null once it passes the bound (the rest is not read). */
async function boundedText(body: AsyncIterable<Buffer>): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_REPORT_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function countsOf(text: string): ProcessedReport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: 'the answer is not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { error: 'the answer is not a JSON object of { id: times_processed }' };
  }
  const counts: Record<string, number> = {};
  for (const [id, times] of Object.entries(value)) if (typeof times === 'number') counts[id] = times;
  return { counts };
}

/**
 * Reads the receiver's report of what it processed (contract §17): `GET report_url?ids=…`, over the
 * run's own guarded connections (no redirect followed, the profile's address rules applied).
 */
export function receiverReport(reportUrl: string, connections: Dispatcher, timeoutMs: number): ReadReport {
  return async (ids, signal) => {
    const url = new URL(reportUrl);
    url.searchParams.set('ids', ids.join(','));
    try {
      const answer = await request(url, {
        method: 'GET',
        dispatcher: connections,
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const text = await boundedText(answer.body);
      if (text === null) {
        answer.body.destroy();
        return { error: `the answer is larger than ${MAX_REPORT_BYTES} bytes` };
      }
      if (answer.statusCode !== 200) return { error: `answered ${answer.statusCode}` };
      return countsOf(text);
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  };
}
