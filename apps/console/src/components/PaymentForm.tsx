import { SelectField } from './SelectField';
import { useState } from 'preact/hooks';
import type { ConsoleClient, Exchange } from '../api/client';
import {
  OPERATIONS,
  amountFor,
  choosesScenario,
  namesReference,
  paymentRequest,
  takesAmount,
  type Operation,
  type PaymentFields,
} from '../model/payment-request';
import { SCENARIO_CHOICES, money } from '../model/scenarios';
import { shownFleet, type ConsoleState } from '../model/store';
import { ExchangeView } from './ExchangeView';

interface FormProps {
  client: ConsoleClient;
  state: ConsoleState;
  onStarted: (clientTransactionId: string) => void;
}

/**
 * Brings the terminal's screen into view when it is off the screen: on a phone the wall is above
 * the form and its long answer, and the screen is what the payment is about.
 */
function showScreenOf(serial: string): void {
  const screen = document.querySelector(`[data-testid="screen-${serial}"]`);
  if (screen === null) return;
  const { top, bottom } = screen.getBoundingClientRect();
  if (top < 0 || bottom > window.innerHeight) screen.scrollIntoView({ block: 'center' });
}

export function PaymentForm({ client, state, onStarted }: FormProps) {
  const [fields, setFields] = useState<PaymentFields>({
    operation: 'charge',
    serial: '',
    form: 'cloud',
    mode: 'async',
    pesos: 100,
    ending: '00',
    reference: '',
    tipCentavos: 1000,
    webhookUrl: '',
  });
  const [exchange, setExchange] = useState<Exchange | null>(null);
  const [sending, setSending] = useState(false);
  const serial = fields.serial !== '' ? fields.serial : (shownFleet(state)[0]?.serialNumber ?? '');
  const set = (changes: Partial<PaymentFields>): void => setFields({ ...fields, ...changes });
  const references = Object.values(state.transactions)
    .map((view) => view.item)
    .filter((item) => item?.transaction_reference != null);
  const scenario = choosesScenario(fields.operation);
  const amount = amountFor(fields.pesos, scenario ? fields.ending : null);

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setSending(true);
    const request = paymentRequest({ ...fields, serial }, crypto.randomUUID());
    onStarted(request.clientTransactionId);
    try {
      setExchange(await client.send('POST', request.path, request.body));
      showScreenOf(serial);
    } finally {
      setSending(false);
    }
  };

  return (
    <section class="panel payment" aria-labelledby="payment-title">
      <h2 id="payment-title">New payment</h2>
      <form onSubmit={(e) => void submit(e)}>
        <div class="row">
          <SelectField
            label="Operation"
            value={fields.operation}
            onChange={(e) => set({ operation: e.currentTarget.value as Operation })}
          >
            {OPERATIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.words}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Terminal"
            value={serial}
            onChange={(e) => set({ serial: e.currentTarget.value })}
          >
            {shownFleet(state).map((t) => (
              <option key={t.serialNumber} value={t.serialNumber}>
                {t.serialNumber}
              </option>
            ))}
          </SelectField>
        </div>
        <div class="row">
          <fieldset>
            <legend>Mode</legend>
            {(['async', 'sync'] as const).map((mode) => (
              <label key={mode} class="check">
                <input
                  type="radio"
                  name="mode"
                  value={mode}
                  checked={fields.operation === 'refund' ? mode === 'sync' : fields.mode === mode}
                  disabled={fields.operation === 'refund'}
                  onChange={() => set({ mode })}
                />
                {mode}
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend>Form</legend>
            {(['cloud', 'local'] as const).map((form) => (
              <label key={form} class="check">
                <input
                  type="radio"
                  name="form"
                  value={form}
                  checked={fields.form === form}
                  onChange={() => set({ form })}
                />
                {form === 'cloud' ? 'Cloud' : 'Local'}
              </label>
            ))}
          </fieldset>
        </div>
        {takesAmount(fields.operation) && (
          <div class="row">
            <label>
              Amount before IVA (pesos)
              {fields.operation === 'charge' || fields.operation === 'authorization' ? '' : ', optional'}
              <input
                type="number"
                min="0"
                step="0.01"
                value={fields.pesos}
                onInput={(e) => set({ pesos: Number(e.currentTarget.value) })}
              />
            </label>
            {scenario && (
              <SelectField
                label="Scenario"
                value={fields.ending}
                onChange={(e) => set({ ending: e.currentTarget.value })}
              >
                {SCENARIO_CHOICES.map((s) => (
                  <option key={s.ending} value={s.ending}>
                    {s.words}
                  </option>
                ))}
              </SelectField>
            )}
          </div>
        )}
        {takesAmount(fields.operation) && fields.pesos > 0 && (
          <p class="muted" data-testid="total">
            Total {money((amount.iva + amount.subtotal_iva) / 100)} (IVA {money(amount.iva / 100)})
          </p>
        )}
        {namesReference(fields.operation) && (
          <label>
            Transaction reference
            <input
              list="references"
              required
              value={fields.reference}
              onInput={(e) => set({ reference: e.currentTarget.value })}
            />
            <datalist id="references">
              {references.map((item) => (
                <option key={item?.transaction_reference} value={item?.transaction_reference ?? ''}>
                  {item?.operation_type} {item?.terminal_serial} {item?.business_state}
                </option>
              ))}
            </datalist>
          </label>
        )}
        {fields.operation === 'pos_tip' && (
          <label>
            Tip (centavos)
            <input
              type="number"
              min="1"
              step="1"
              value={fields.tipCentavos}
              onInput={(e) => set({ tipCentavos: Number(e.currentTarget.value) })}
            />
          </label>
        )}
        {fields.mode === 'async' && fields.operation !== 'refund' && (
          <label>
            Webhook URL (optional)
            <input
              type="url"
              placeholder="http://127.0.0.1:4000/hook"
              value={fields.webhookUrl}
              onInput={(e) => set({ webhookUrl: e.currentTarget.value })}
            />
          </label>
        )}
        <button type="submit" disabled={sending || serial === ''}>
          {sending ? 'Waiting for the answer…' : 'Send'}
        </button>
      </form>
      {exchange !== null && <ExchangeView exchange={exchange} />}
    </section>
  );
}
