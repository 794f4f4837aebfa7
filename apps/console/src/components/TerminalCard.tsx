import { SelectField } from './SelectField';
import { useState } from 'preact/hooks';
import { isErrorBody, type ConsoleClient } from '../api/client';
import { cardholderNote } from '../model/cardholder-note';
import { screenOf } from '../model/screen';
import type { ReadingType, TerminalRecord, TransactionEvent } from '../model/types';

interface CardProps {
  client: ConsoleClient;
  terminal: TerminalRecord;
  last: TransactionEvent | undefined;
  onTerminal: (terminal: TerminalRecord) => void;
  onRefresh: () => void;
}

const PRESENTATIONS: ReadonlyArray<{ label: string; readingType: ReadingType }> = [
  { label: 'Tap', readingType: 'CONTACTLESS' },
  { label: 'Insert', readingType: 'CHIP' },
  { label: 'Swipe', readingType: 'MAGNETIC_STRIPE' },
];

/** "nothing waits" → "Nothing waits." */
function sentence(message: string): string {
  const text = message.trim();
  if (text === '') return text;
  return `${text[0].toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;
}

export function TerminalCard({ client, terminal, last, onTerminal, onRefresh }: CardProps) {
  const [notice, setNotice] = useState('');
  const serial = terminal.serialNumber;
  const screen = screenOf(terminal, last);
  const offline = terminal.link === 'offline';
  // A card can be presented only while the terminal asks for one (contract: card control).
  const noCardReason = offline
    ? `${serial} is offline`
    : screen.tone === 'waiting' || screen.tone === 'working'
      ? null
      : `nothing on ${serial} waits for a card`;

  const act = async (method: string, path: string, body?: unknown): Promise<void> => {
    setNotice('');
    const exchange = await client.send<Record<string, unknown>>(method, path, body);
    if (exchange.status >= 400) {
      const answer: unknown = exchange.answer;
      // The message is for people; the code stays in the console's exchange view.
      setNotice(
        isErrorBody(answer) ? sentence(answer.message) : `The sandbox answered HTTP ${exchange.status}.`,
      );
      return;
    }
    if (typeof exchange.answer.serialNumber === 'string')
      onTerminal(exchange.answer as unknown as TerminalRecord);
    else onRefresh();
  };
  const card = (body: unknown): Promise<void> => act('POST', `/sandbox/terminals/${serial}/card`, body);
  const settings = (body: Partial<TerminalRecord>): Promise<void> =>
    act('PATCH', `/sandbox/terminals/${serial}`, body);

  return (
    <article class="terminal" aria-label={`Terminal ${serial}`}>
      <header>
        <h3>{serial}</h3>
        <span class="muted">
          {terminal.room} · {terminal.model}
        </span>
      </header>
      <div
        class={`screen tone-${screen.tone}`}
        role="status"
        aria-live="polite"
        data-testid={`screen-${serial}`}
      >
        <div class="screen-title">{screen.title}</div>
        <div class="screen-detail">{screen.detail}</div>
        <div class="screen-foot">
          <span>link {terminal.link}</span>
          <span class={terminal.printer === 'ok' ? '' : 'warn'}>
            printer {terminal.printer.replace('_', ' ')}
          </span>
        </div>
      </div>
      <div class="buttons" role="group" aria-label={`Cardholder at ${serial}`}>
        {PRESENTATIONS.map((p) => (
          <button
            key={p.label}
            aria-label={`${p.label} a card on ${serial}`}
            disabled={noCardReason !== null}
            title={noCardReason ?? undefined}
            onClick={() => void card({ action: 'present', reading_type: p.readingType })}
          >
            {p.label}
          </button>
        ))}
        <button aria-label={`Cancel on ${serial}`} onClick={() => void card({ action: 'cancel' })}>
          Cancel
        </button>
      </div>
      <div class="settings" role="group" aria-label={`Settings of ${serial}`}>
        <button
          aria-label={offline ? `Bring ${serial} online` : `Take ${serial} offline`}
          onClick={() => void act('POST', `/sandbox/terminals/${serial}/${offline ? 'online' : 'offline'}`)}
        >
          {offline ? 'Go online' : 'Go offline'}
        </button>
        <SelectField
          label="Pace"
          value={terminal.pace}
          onChange={(e) => void settings({ pace: e.currentTarget.value as TerminalRecord['pace'] })}
        >
          <option value="instant">instant</option>
          <option value="fast">fast</option>
          <option value="realistic">realistic</option>
        </SelectField>
        <SelectField
          label="Printer"
          value={terminal.printer}
          onChange={(e) => void settings({ printer: e.currentTarget.value as TerminalRecord['printer'] })}
        >
          <option value="ok">ok</option>
          <option value="cover_open">cover open</option>
          <option value="paper_out">paper out</option>
        </SelectField>
        <label class="check">
          <input
            type="checkbox"
            checked={terminal.cardholder === 'manual'}
            onChange={(e) => void settings({ cardholder: e.currentTarget.checked ? 'manual' : 'auto' })}
          />
          Cardholder manual
        </label>
      </div>
      {terminal.cardholderManual !== null && (
        <p class="note" data-testid="cardholder-note">
          {cardholderNote(terminal.cardholderManual, Date.now())}
        </p>
      )}
      {notice !== '' && (
        <p role="alert" class="error">
          {notice}
        </p>
      )}
    </article>
  );
}
