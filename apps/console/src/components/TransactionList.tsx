import { recentTransactions, type ConsoleState } from '../model/store';

interface ListProps {
  state: ConsoleState;
  selected: string | null;
  onSelect: (clientTransactionId: string) => void;
}

export function TransactionList({ state, selected, onSelect }: ListProps) {
  const views = recentTransactions(state);
  return (
    <ul class="tx-list" aria-label="Recent transactions">
      {views.length === 0 && <li class="muted">Nothing yet: start a payment.</li>}
      {views.map((view) => (
        <li key={view.clientTransactionId}>
          <button
            class={view.clientTransactionId === selected ? 'tx selected' : 'tx'}
            aria-pressed={view.clientTransactionId === selected}
            onClick={() => onSelect(view.clientTransactionId)}
          >
            <span class={`badge status-${view.status ?? 'none'}`}>{view.status ?? '…'}</span>
            <span>
              {view.operation} · {view.serial}
            </span>
            <span class="muted mono">{view.clientTransactionId.slice(0, 8)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
