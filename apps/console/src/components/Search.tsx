import { SelectField } from './SelectField';
import { useState } from 'preact/hooks';
import { money } from '../model/scenarios';
import type { SearchAnswer, SearchItem, TerminalRecord } from '../model/types';
// The service's own list (a pure file of libs/domain, bundled into the console).
import { OPERATION_TYPES } from '../../../../libs/domain/src/operation-types';

interface SearchProps {
  fleet: TerminalRecord[];
  find: (filters: Record<string, unknown>) => Promise<SearchAnswer>;
  onSelect: (clientTransactionId: string) => void;
}

const STATUSES = [
  'TERMINAL_ACKNOWLEDGED',
  'CARD_PRESENTED',
  'APPROVAL_REQUESTED',
  'APPROVAL',
  'DECLINED',
  'TERMINAL_REJECTED',
  'TERMINAL_CANCELED',
];

/** Online transaction search (contract §7) with its filters. */
export function Search({ fleet, find, onSelect }: SearchProps) {
  const [filters, setFilters] = useState({
    status: '',
    operation_type: '',
    terminal_serial: '',
    client_transaction_id: '',
    from: '',
    to: '',
  });
  const [items, setItems] = useState<SearchItem[] | null>(null);
  const [error, setError] = useState('');
  const set = (changes: Partial<typeof filters>): void => setFilters({ ...filters, ...changes });

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setError('');
    const body: Record<string, unknown> = { limit: 50 };
    for (const [name, value] of Object.entries(filters)) {
      if (value === '') continue;
      body[name] = name === 'from' || name === 'to' ? new Date(value).toISOString() : value.trim();
    }
    try {
      setItems((await find(body)).items);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };

  return (
    <section class="panel search" aria-labelledby="search-title">
      <h2 id="search-title">Transaction search</h2>
      <form class="filters" onSubmit={(e) => void submit(e)}>
        <SelectField
          label="Status"
          value={filters.status}
          onChange={(e) => set({ status: e.currentTarget.value })}
        >
          <option value="">any</option>
          {STATUSES.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </SelectField>
        <SelectField
          label="Operation"
          value={filters.operation_type}
          onChange={(e) => set({ operation_type: e.currentTarget.value })}
        >
          <option value="">any</option>
          {OPERATION_TYPES.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </SelectField>
        <SelectField
          label="Terminal"
          value={filters.terminal_serial}
          onChange={(e) => set({ terminal_serial: e.currentTarget.value })}
        >
          <option value="">any</option>
          {fleet.map((t) => (
            <option key={t.serialNumber}>{t.serialNumber}</option>
          ))}
        </SelectField>
        <label>
          client_transaction_id
          <input
            value={filters.client_transaction_id}
            onInput={(e) => set({ client_transaction_id: e.currentTarget.value })}
          />
        </label>
        <label>
          From
          <input
            type="datetime-local"
            value={filters.from}
            onInput={(e) => set({ from: e.currentTarget.value })}
          />
        </label>
        <label>
          To
          <input
            type="datetime-local"
            value={filters.to}
            onInput={(e) => set({ to: e.currentTarget.value })}
          />
        </label>
        <button type="submit">Search</button>
      </form>
      {error !== '' && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {items !== null && (
        <table>
          <caption class="visually-hidden">Search results</caption>
          <thead>
            <tr>
              <th scope="col">Created</th>
              <th scope="col">Terminal</th>
              <th scope="col">Operation</th>
              <th scope="col">Status</th>
              <th scope="col">Business state</th>
              <th scope="col">Total</th>
              <th scope="col">Card</th>
              <th scope="col">
                <span class="visually-hidden">Open</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.length === 0 && (
              <tr>
                <td colSpan={8}>No transaction matches.</td>
              </tr>
            )}
            {items.map((item) => (
              <tr key={item.client_transaction_id}>
                <td class="mono">{item.created_at.slice(0, 19).replace('T', ' ')}</td>
                <td>{item.terminal_serial}</td>
                <td>{item.operation_type}</td>
                <td>{item.status}</td>
                <td>{item.business_state ?? '—'}</td>
                <td>{money(item.amount.total / 100)}</td>
                <td class="mono">
                  {item.card === null ? '—' : `${item.card.franchise} ${item.card.pan.slice(-4)}`}
                </td>
                <td>
                  <button class="quiet" onClick={() => onSelect(item.client_transaction_id)}>
                    Timeline
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
