import type { PrintJob } from '../model/types';
import { Paper } from './Paper';

const SHOWN = 3;

/** The latest print jobs of the merchant, as paper once printed. */
export function Receipts({ jobs }: { jobs: PrintJob[] }) {
  return (
    <section class="panel receipts" aria-labelledby="receipts-title">
      <h2 id="receipts-title">Receipts</h2>
      {jobs.length === 0 && <p class="muted">Print jobs appear here as the terminal prints them.</p>}
      <div class="receipt-row">
        {jobs.slice(0, SHOWN).map((job) => (
          <figure key={job.printJobId} class="receipt" data-status={job.status}>
            <figcaption>
              {job.terminalSerial} · <span class={`badge print-${job.status}`}>{job.status}</span>
              {job.errorCode !== undefined && <span class="warn"> {job.errorCode}</span>}
            </figcaption>
            {job.status === 'COMPLETED' ? (
              <Paper job={job} />
            ) : (
              <p class="muted">{job.status === 'FAILED' ? 'not printed' : 'printing…'}</p>
            )}
          </figure>
        ))}
      </div>
    </section>
  );
}
