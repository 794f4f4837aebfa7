import { useEffect, useState } from 'preact/hooks';
import type { ConsoleClient } from '../api/client';
import type { TransactionView } from '../model/store';
import { mexicoCityTimeOfDay } from '../model/time-words';
import type { DeliveryRecord, PrintJob } from '../model/types';

interface TimelineProps {
  client: ConsoleClient;
  view: TransactionView | undefined;
  deliveryTick: number;
  onPrinted: (job: PrintJob) => void;
}

interface Step {
  eventId: string;
  status: string;
  occurredAt: string;
  detail: string;
}

function stepsOf(view: TransactionView): Step[] {
  if (view.events.length > 0) {
    return view.events.map((e) => ({
      eventId: e.event_id,
      status: e.status,
      occurredAt: e.occurred_at,
      detail: [e.reading_type, e.failure_reason?.code, e.failure_reason?.message].filter(Boolean).join(' · '),
    }));
  }
  return (view.item?.events ?? []).map((e) => ({
    eventId: e.event_id,
    status: e.status,
    occurredAt: e.occurred_at,
    detail: '',
  }));
}

/** Why an event has no delivery: the acknowledgement is the answer; a sync call or no URL sends none. */
function noWebhook(view: TransactionView, status: string): string {
  if (status === 'TERMINAL_ACKNOWLEDGED') return 'the answer to the request';
  return view.events[0]?.operation.eventsWebHook === '' ? 'no webhook URL' : 'no webhook';
}

/** A transaction's events as they happen and, beside each, its webhook deliveries and attempts. */
export function Timeline({ client, view, deliveryTick, onPrinted }: TimelineProps) {
  const [deliveries, setDeliveries] = useState<DeliveryRecord[]>([]);
  const [notice, setNotice] = useState('');
  const key = view?.clientTransactionId;
  const eventCount = view?.events.length ?? 0;

  useEffect(() => {
    if (key === undefined) return;
    let current = true;
    void client
      .ok<{ items: DeliveryRecord[] }>(
        'GET',
        `/sandbox/deliveries?client_transaction_id=${encodeURIComponent(key)}`,
      )
      .then((answer) => current && setDeliveries(answer.items))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [client, key, deliveryTick, eventCount]);

  if (view === undefined) {
    return (
      <div class="timeline" aria-label="Timeline">
        <p class="muted">Choose a transaction to see its timeline.</p>
      </div>
    );
  }

  const redeliver = async (id: string): Promise<void> => {
    const exchange = await client.send<Record<string, unknown>>(
      'POST',
      `/sandbox/deliveries/${id}/redeliver`,
    );
    setNotice(
      exchange.status < 300
        ? 'Sent again.'
        : `${String(exchange.answer.code)}: ${String(exchange.answer.message)}`,
    );
  };
  const print = async (): Promise<void> => {
    const reference = view.item?.transaction_reference;
    if (reference == null) return;
    const exchange = await client.send<PrintJob & { code?: string; message?: string }>(
      'POST',
      `/terminal/v1/${view.serial}/print`,
      { transaction_reference: reference, externalReference: `console-${reference.slice(0, 8)}` },
    );
    if (exchange.status === 202) onPrinted(exchange.answer);
    else setNotice(`${exchange.answer.code ?? exchange.status}: ${exchange.answer.message ?? ''}`);
  };

  return (
    <div class="timeline" aria-label={`Timeline of ${view.clientTransactionId}`} data-testid="timeline">
      <dl class="facts">
        <dt>Transaction</dt>
        <dd class="mono">{view.clientTransactionId}</dd>
        <dt>Terminal · operation</dt>
        <dd>
          {view.serial} · {view.operation}
        </dd>
        <dt>Reference</dt>
        <dd class="mono">{view.item?.transaction_reference ?? '—'}</dd>
        <dt>Business state</dt>
        <dd>{view.item?.business_state ?? '—'}</dd>
      </dl>
      {view.item?.transaction_reference != null && (
        <button onClick={() => void print()}>Print the receipt of this transaction</button>
      )}
      <ol class="steps">
        {stepsOf(view).map((step) => {
          const sent = deliveries.filter((d) => d.event_id === step.eventId);
          return (
            <li key={step.eventId} class="step" data-status={step.status}>
              <div class="step-event">
                <span class={`badge status-${step.status}`}>{step.status}</span>
                <span class="mono muted step-time">{mexicoCityTimeOfDay(step.occurredAt)}</span>
                {step.detail !== '' && <span>{step.detail}</span>}
              </div>
              <div class="step-webhooks">
                {sent.length === 0 && <span class="muted">{noWebhook(view, step.status)}</span>}
                {sent.map((d) => (
                  <div key={d.id} class="delivery" data-state={d.state}>
                    <span class={`badge delivery-${d.state}`}>webhook {d.state}</span>
                    {d.attempts.map((a) => (
                      <span key={a.n} class="attempt mono">
                        #{a.n} {a.status_code ?? a.error} · {a.latency_ms} ms
                      </span>
                    ))}
                    {d.next_attempt_at !== null && (
                      <span class="muted">next {mexicoCityTimeOfDay(d.next_attempt_at)}</span>
                    )}
                    <button
                      class="quiet"
                      aria-label={`Redeliver ${step.status}`}
                      onClick={() => void redeliver(d.id)}
                    >
                      Redeliver
                    </button>
                  </div>
                ))}
              </div>
            </li>
          );
        })}
      </ol>
      {notice !== '' && <p role="status">{notice}</p>}
    </div>
  );
}
