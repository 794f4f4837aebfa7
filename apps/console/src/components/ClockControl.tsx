import { useEffect, useState } from 'preact/hooks';
import type { ConsoleClient } from '../api/client';
import { offsetWords, sandboxClockText } from '../model/time-words';
import type { Clock } from '../model/types';

/** The clock is drawn each second from the offset; the offset is read again now and then, for advances made elsewhere. */
const TICK_MS = 1000;
const REREAD_MS = 30_000;

const STEPS = [
  { seconds: 3600, words: '1 hour' },
  { seconds: 86_400, words: '1 day' },
  { seconds: 7 * 86_400, words: '7 days' },
  { seconds: 29 * 86_400, words: '29 days' },
];

/** The merchant's sandbox clock (contract §8): read, and moved forward for the business rules. */
export function ClockControl({ client }: { client: ConsoleClient }) {
  const [clock, setClock] = useState<Clock | null>(null);
  // Nothing chosen at first: on a shared merchant, moving its clock is a deliberate act.
  const [step, setStep] = useState<number | null>(null);
  const [error, setError] = useState('');
  const [now, setNow] = useState(Date.now());

  useEffect(() => {
    const read = (): void => void client.ok<Clock>('GET', '/sandbox/clock').then(setClock, () => undefined);
    read();
    const tick = setInterval(() => setNow(Date.now()), TICK_MS);
    const reread = setInterval(read, REREAD_MS);
    return () => {
      clearInterval(tick);
      clearInterval(reread);
    };
  }, [client]);

  const advance = async (): Promise<void> => {
    if (step === null) return;
    setError('');
    try {
      setClock(await client.ok<Clock>('POST', '/sandbox/clock', { advance_seconds: step }));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };

  return (
    <div class="clock" role="group" aria-label="Sandbox clock">
      <span data-testid="clock">
        {clock === null ? 'clock…' : sandboxClockText(now, clock.offset_seconds)}
        {clock !== null && offsetWords(clock.offset_seconds) !== ''
          ? ` (${offsetWords(clock.offset_seconds)})`
          : ''}
      </span>
      <select
        aria-label="Advance the clock by"
        value={step === null ? '' : String(step)}
        onChange={(e) => setStep(e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}
      >
        <option value="" disabled>
          move by…
        </option>
        {STEPS.map((s) => (
          <option key={s.seconds} value={s.seconds}>
            +{s.words}
          </option>
        ))}
      </select>
      <button
        class="quiet"
        disabled={step === null}
        title={step === null ? 'Choose how far to move the clock first' : undefined}
        onClick={() => void advance()}
      >
        Advance
      </button>
      {error !== '' && <span role="alert">{error}</span>}
    </div>
  );
}
