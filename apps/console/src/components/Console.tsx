import { useCallback, useEffect, useReducer, useRef, useState } from 'preact/hooks';
import type { ConsoleClient } from '../api/client';
import { openLive, type LiveState } from '../api/live';
import { INITIAL_STATE, isFinal, reduce, shownFleet } from '../model/store';
import type { LiveMessage, PrintJob, SearchAnswer, TerminalRecord } from '../model/types';
import { ClockControl } from './ClockControl';
import { Conformance } from './Conformance';
import { PaymentForm } from './PaymentForm';
import { Receipts } from './Receipts';
import { Search } from './Search';
import { Timeline } from './Timeline';
import { TransactionList } from './TransactionList';
import { Wall } from './Wall';

/** The wall refreshes its link states on its own too, for changes made elsewhere (curl). */
const FLEET_REFRESH_MS = 3000;

export function Console({ client, onSignOut }: { client: ConsoleClient; onSignOut: () => void }) {
  const [state, dispatch] = useReducer(reduce, INITIAL_STATE);
  const [live, setLive] = useState<LiveState>('connecting');
  const [selected, setSelected] = useState<string | null>(null);
  /** Bumped by each webhook attempt, so the timeline of that transaction reads its deliveries again. */
  const [deliveryTicks, setDeliveryTicks] = useState<Record<string, number>>({});

  const searchPath = useCallback(
    (fleet: TerminalRecord[]) =>
      // Online search covers the whole merchant in Cloud form; it names any terminal of the fleet.
      fleet.length > 0 ? `/terminal/v1/${fleet[0].serialNumber}/sync/transaction_search_online` : null,
    [],
  );

  /** Counts the console's own terminal changes, so that a list read before one cannot undo it. */
  const changes = useRef(0);
  const refreshFleet = useCallback(async (): Promise<TerminalRecord[]> => {
    const before = changes.current;
    const fleet = await client.ok<TerminalRecord[]>('GET', '/sandbox/terminals');
    if (changes.current === before) dispatch({ type: 'fleet', fleet });
    return fleet;
  }, [client]);
  const changed = useCallback((terminal: TerminalRecord) => {
    changes.current += 1;
    dispatch({ type: 'terminal', terminal });
  }, []);

  const find = useCallback(
    async (filters: Record<string, unknown>): Promise<SearchAnswer> => {
      const path = searchPath(state.fleet.length > 0 ? state.fleet : await refreshFleet());
      if (path === null) return { items: [], next_cursor: null };
      const answer = await client.ok<SearchAnswer>('POST', path, filters);
      dispatch({ type: 'found', items: answer.items });
      return answer;
    },
    [client, refreshFleet, searchPath, state.fleet],
  );

  useEffect(() => {
    void refreshFleet().then(async (fleet) => {
      const path = searchPath(fleet);
      if (path === null) return;
      const answer = await client.ok<SearchAnswer>('POST', path, { limit: 20 });
      dispatch({ type: 'found', items: answer.items });
    });
    const timer = setInterval(() => void refreshFleet().catch(() => undefined), FLEET_REFRESH_MS);
    const onMessage = (message: LiveMessage): void => {
      switch (message.type) {
        case 'hello':
        case 'ping':
          return;
        case 'event':
          dispatch({ type: 'event', serial: message.serial, event: message.event });
          if (isFinal(message.event.status)) {
            // The reference and business state of the outcome come from search.
            const path = `/terminal/v1/${message.serial}/sync/transaction_search_online`;
            void client
              .ok<SearchAnswer>('POST', path, { client_transaction_id: message.event.client_transaction_id })
              .then((answer) => dispatch({ type: 'found', items: answer.items }))
              .catch(() => undefined);
          }
          return;
        case 'delivery':
          setDeliveryTicks((ticks) => ({
            ...ticks,
            [message.client_transaction_id]: (ticks[message.client_transaction_id] ?? 0) + 1,
          }));
          return;
        case 'print':
          dispatch({ type: 'print', job: message.job });
          return;
        default: {
          const unknown: never = message;
          console.warn('unknown live message', unknown);
        }
      }
    };
    const close = openLive(client, onMessage, setLive);
    return () => {
      clearInterval(timer);
      close();
    };
  }, [client, refreshFleet, searchPath]);

  const printed = useCallback((job: PrintJob) => dispatch({ type: 'print', job }), []);
  const view = selected === null ? undefined : state.transactions[selected];

  return (
    <div class="console">
      <header class="top">
        <h1>Terminal Payment Service · console</h1>
        <span class="merchant">merchant {client.merchantId}</span>
        <span role="status" class={`live live-${live}`} data-testid="live">
          {live === 'live' ? 'Live' : live === 'connecting' ? 'Connecting…' : 'Reconnecting…'}
        </span>
        <ClockControl client={client} />
        <button class="quiet" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main class="layout">
        <div class="column">
          <Wall
            client={client}
            fleet={shownFleet(state)}
            lastEvent={state.lastEvent}
            onTerminal={changed}
            onRefresh={() => void refreshFleet()}
          />
          <section class="panel activity" aria-labelledby="activity-title">
            <h2 id="activity-title">Transactions</h2>
            <div class="activity-body">
              <TransactionList state={state} selected={selected} onSelect={setSelected} />
              <Timeline
                client={client}
                view={view}
                deliveryTick={selected === null ? 0 : (deliveryTicks[selected] ?? 0)}
                onPrinted={printed}
              />
            </div>
          </section>
          <Search fleet={shownFleet(state)} find={find} onSelect={setSelected} />
        </div>
        <div class="column">
          <PaymentForm client={client} state={state} onStarted={setSelected} />
          <Receipts jobs={state.printJobs} />
          <Conformance client={client} />
        </div>
      </main>
    </div>
  );
}
