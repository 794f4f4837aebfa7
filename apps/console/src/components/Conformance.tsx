import { useCallback, useEffect, useState } from 'preact/hooks';
import type { ConsoleClient } from '../api/client';
import { scoreWords, type ConformanceRun } from '../model/conformance';
import { mexicoCityText } from '../model/time-words';

/** How often the list is read again while a run goes on (a run lasts at most 60 s). */
const FOLLOW_MS = 1000;

/** Contract §17: test the merchant's webhook receiver, and read each run as a report card. */
export function Conformance({ client }: { client: ConsoleClient }) {
  const [url, setUrl] = useState('');
  const [reportUrl, setReportUrl] = useState('');
  const [runs, setRuns] = useState<ConformanceRun[]>([]);
  const [shown, setShown] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);

  const refresh = useCallback(async () => {
    const list = await client.ok<{ items: ConformanceRun[] }>('GET', '/sandbox/conformance-runs');
    setRuns(list.items);
  }, [client]);

  useEffect(() => void refresh().catch(() => undefined), [refresh]);
  const running = runs.some((run) => run.state === 'running');
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => void refresh().catch(() => undefined), FOLLOW_MS);
    return () => clearInterval(timer);
  }, [running, refresh]);

  const start = async (event: Event): Promise<void> => {
    event.preventDefault();
    setError(null);
    setStarting(true);
    try {
      const body = reportUrl === '' ? { url } : { url, report_url: reportUrl };
      const run = await client.ok<{ id: string }>('POST', '/sandbox/conformance-runs', body);
      setShown(run.id);
      await refresh();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setStarting(false);
    }
  };

  const run = runs.find((r) => r.id === shown) ?? runs[0];
  return (
    <section class="panel conformance" aria-labelledby="conformance-title">
      <h2 id="conformance-title">Webhook receiver conformance</h2>
      <form class="conformance-form" onSubmit={(e) => void start(e)}>
        <label>
          Receiver URL
          <input
            type="url"
            required
            placeholder="https://pos.example.com/webhooks"
            value={url}
            onInput={(e) => setUrl(e.currentTarget.value)}
          />
        </label>
        <label>
          Report URL (optional)
          <input
            type="url"
            placeholder="https://pos.example.com/processed"
            value={reportUrl}
            onInput={(e) => setReportUrl(e.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={starting}>
          Run conformance
        </button>
      </form>
      {error !== null && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {runs.length === 0 && (
        <p class="muted">
          Sends your receiver duplicates, gaps, out-of-order and badly signed events, a burst and a repeated
          print callback, signed with your webhook secret, and scores what it answers and searches.
        </p>
      )}
      {runs.length > 1 && (
        <label class="run-choice">
          Run
          <select value={run?.id} onChange={(e) => setShown(e.currentTarget.value)}>
            {runs.map((r) => (
              <option key={r.id} value={r.id}>
                {mexicoCityText(Date.parse(r.started_at)).slice(11)} · {scoreWords(r)}
              </option>
            ))}
          </select>
        </label>
      )}
      {run !== undefined && <ReportCard run={run} />}
    </section>
  );
}

function ReportCard({ run }: { run: ConformanceRun }) {
  const perfect = run.state === 'finished' && run.score.failed === 0;
  return (
    <div class="report-card" data-testid="report-card" data-state={run.state}>
      <p class="report-score">
        <strong class={perfect ? 'score-ok' : run.state === 'running' ? '' : 'score-bad'}>
          {scoreWords(run)}
        </strong>
        <span class="muted mono report-url">{run.url}</span>
      </p>
      <ul class="report-cases">
        {run.cases.map((c) => (
          <li key={c.name} data-passed={String(c.passed)} data-skipped={String(c.skipped === true)}>
            <span class={`badge ${c.skipped === true ? 'case-skip' : c.passed ? 'case-pass' : 'case-fail'}`}>
              {c.skipped === true ? 'SKIP' : c.passed ? 'PASS' : 'FAIL'}
            </span>
            <span class="mono case-name">{c.name}</span>
            <span class="muted case-rule">{c.rule}</span>
            {c.skipped === true && <p class="muted case-detail">{c.observed}</p>}
            {!c.passed && c.skipped !== true && (
              <div class="case-detail">
                <p>
                  <strong>Expected</strong> {c.expected}
                </p>
                <p>
                  <strong>Observed</strong> {c.observed}
                </p>
                <p class="case-hint">
                  <strong>What to change</strong> {c.hint}
                </p>
              </div>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
