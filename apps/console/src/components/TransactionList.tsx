import { recentTransactions, type ConsoleState } from '../model/store';
import { rowFacts } from '../model/transaction-row';

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
      {views.map((view) => {
        const facts = rowFacts(view);
        return (
          <li key={view.clientTransactionId}>
            <button
              class={view.clientTransactionId === selected ? 'tx selected' : 'tx'}
              aria-pressed={view.clientTransactionId === selected}
              onClick={() => onSelect(view.clientTransactionId)}
            >
              <span class={`badge status-${view.status ?? 'none'}`}>{view.status ?? '…'}</span>
              <span>
                {view.operation} · {view.serial}
                {facts.amount !== null && <strong class="tx-amount"> {facts.amount}</strong>}
              </span>
              <span class="muted mono">
                {view.clientTransactionId.slice(0, 8)}
                {facts.at !== null && (
                  <>
                    {' · '}
                    <time dateTime={facts.at.iso}>{facts.at.time}</time>
                  </>
                )}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
