import { useEffect, useState } from 'preact/hooks';
import type { ConsoleClient } from '../api/client';
import type { Clock } from '../model/types';

const STEPS = [
  { seconds: 3600, words: '1 hour' },
  { seconds: 86_400, words: '1 day' },
  { seconds: 7 * 86_400, words: '7 days' },
  { seconds: 29 * 86_400, words: '29 days' },
];

/** The merchant's sandbox clock (contract §8): read, and moved forward for the business rules. */
export function ClockControl({ client }: { client: ConsoleClient }) {
  const [clock, setClock] = useState<Clock | null>(null);
  const [step, setStep] = useState(STEPS[1].seconds);
  const [error, setError] = useState('');

  useEffect(() => {
    void client.ok<Clock>('GET', '/sandbox/clock').then(setClock, () => undefined);
  }, [client]);

  const advance = async (): Promise<void> => {
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
        {clock === null ? 'clock…' : `${clock.local.slice(0, 16).replace('T', ' ')} Mexico City`}
        {clock !== null && clock.offset_seconds > 0 ? ` (+${Math.round(clock.offset_seconds / 3600)} h)` : ''}
      </span>
      <select
        aria-label="Advance the clock by"
        value={step}
        onChange={(e) => setStep(Number(e.currentTarget.value))}
      >
        {STEPS.map((s) => (
          <option key={s.seconds} value={s.seconds}>
            +{s.words}
          </option>
        ))}
      </select>
      <button class="quiet" onClick={() => void advance()}>
        Advance
      </button>
      {error !== '' && <span role="alert">{error}</span>}
    </div>
  );
}
