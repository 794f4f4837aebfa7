import {
  FINAL_STATUSES,
  type LifecycleStatus,
  type PrintJob,
  type SearchItem,
  type TerminalRecord,
  type TransactionEvent,
} from './types';

/** A transaction as the console follows it: what the live stream told, and what search adds. */
export interface TransactionView {
  clientTransactionId: string;
  serial: string;
  operation: string;
  status: LifecycleStatus | null;
  events: TransactionEvent[];
  item?: SearchItem;
  /** Milliseconds since the epoch of the last change, for ordering. */
  touched: number;
}

export interface ConsoleState {
  fleet: TerminalRecord[];
  /** The last event of each terminal, which its screen shows. */
  lastEvent: Record<string, TransactionEvent | undefined>;
  transactions: Record<string, TransactionView>;
  printJobs: PrintJob[];
}

export const INITIAL_STATE: ConsoleState = { fleet: [], lastEvent: {}, transactions: {}, printJobs: [] };

export type Action =
  | { type: 'fleet'; fleet: TerminalRecord[] }
  | { type: 'terminal'; terminal: TerminalRecord }
  | { type: 'event'; serial: string; event: TransactionEvent }
  | { type: 'found'; items: SearchItem[] }
  | { type: 'print'; job: PrintJob };

const MAX_PRINT_JOBS = 20;

const PRINT_PROGRESS: Record<PrintJob['status'], number> = {
  PENDING: 0,
  IN_PROGRESS: 1,
  COMPLETED: 2,
  FAILED: 2,
};

/**
 * The answer to the console's own POST can reach the page after the live stream has told the job
 * printed; a job never goes back, so the further of the two is kept.
 */
function furtherJob(known: PrintJob | undefined, told: PrintJob): PrintJob {
  if (known === undefined) return told;
  return PRINT_PROGRESS[told.status] >= PRINT_PROGRESS[known.status] ? told : known;
}

/**
 * Search answers can arrive out of order (the page's first listing, one per finished transaction,
 * the search form): one that knows fewer events than the item shown was read before it.
 */
function newerItem(known: SearchItem | undefined, found: SearchItem): SearchItem {
  return known !== undefined && found.events.length < known.events.length ? known : found;
}

function withEvent(view: TransactionView, event: TransactionEvent): TransactionView {
  if (view.events.some((e) => e.event_id === event.event_id)) return view;
  const events = [...view.events, event].sort((a, b) => a.occurred_at.localeCompare(b.occurred_at));
  const last = events[events.length - 1];
  return { ...view, events, status: last.status, touched: Date.now() };
}

/**
 * A terminal back from offline starts idle: the outcome it showed before it went away is old news
 * (what it did meanwhile replays as new events). Its last event is forgotten, so its screen reads Ready.
 */
function withFleet(state: ConsoleState, fleet: TerminalRecord[]): ConsoleState {
  const before = new Map(state.fleet.map((t) => [t.serialNumber, t.link]));
  const back = fleet.filter((t) => before.get(t.serialNumber) === 'offline' && t.link !== 'offline');
  if (back.length === 0) return { ...state, fleet };
  const lastEvent = { ...state.lastEvent };
  for (const terminal of back) delete lastEvent[terminal.serialNumber];
  return { ...state, fleet, lastEvent };
}

export function reduce(state: ConsoleState, action: Action): ConsoleState {
  switch (action.type) {
    case 'fleet':
      return withFleet(state, action.fleet);
    case 'terminal':
      return withFleet(
        state,
        state.fleet.map((t) => (t.serialNumber === action.terminal.serialNumber ? action.terminal : t)),
      );
    case 'event': {
      const { event } = action;
      const key = event.client_transaction_id;
      const view = state.transactions[key] ?? {
        clientTransactionId: key,
        serial: action.serial,
        operation: event.operation.type,
        status: null,
        events: [],
        touched: Date.now(),
      };
      return {
        ...state,
        lastEvent: { ...state.lastEvent, [action.serial]: event },
        transactions: { ...state.transactions, [key]: withEvent(view, event) },
      };
    }
    case 'found': {
      const transactions = { ...state.transactions };
      for (const found of action.items) {
        const known = transactions[found.client_transaction_id];
        const item = newerItem(known?.item, found);
        // The live stream's status is at least as recent as a search answer's.
        const status = known?.status ?? item.status;
        transactions[item.client_transaction_id] = {
          clientTransactionId: item.client_transaction_id,
          serial: item.terminal_serial,
          operation: item.operation_type,
          events: known?.events ?? [],
          touched: known?.touched ?? Date.parse(item.created_at),
          status,
          item,
        };
      }
      return { ...state, transactions };
    }
    case 'print': {
      const known = state.printJobs.find((job) => job.printJobId === action.job.printJobId);
      const others = state.printJobs.filter((job) => job !== known);
      const job = furtherJob(known, action.job);
      return { ...state, printJobs: [job, ...others].slice(0, MAX_PRINT_JOBS) };
    }
    default: {
      const unknown: never = action;
      throw new Error(`unknown action ${JSON.stringify(unknown)}`);
    }
  }
}

export function isFinal(status: LifecycleStatus | null): boolean {
  return status !== null && FINAL_STATUSES.includes(status);
}

/**
 * The room the service gives the account's own conformance terminal (contract, "The conformance
 * run"): a run's instrument, not one of the demo's terminals.
 */
export const CONFORMANCE_ROOM = 'conformance-run';

/** The terminals the console shows and offers: the fleet less the conformance run's terminal. */
export function shownFleet(state: ConsoleState): TerminalRecord[] {
  return state.fleet.filter((terminal) => terminal.room !== CONFORMANCE_ROOM);
}

/** Newest first; a conformance run's charges are the run's report, not the demo's list. */
export function recentTransactions(state: ConsoleState, limit = 30): TransactionView[] {
  const hidden = new Set(
    state.fleet.filter((terminal) => terminal.room === CONFORMANCE_ROOM).map((t) => t.serialNumber),
  );
  return Object.values(state.transactions)
    .filter((view) => !hidden.has(view.serial))
    .sort((a, b) => b.touched - a.touched)
    .slice(0, limit);
}
