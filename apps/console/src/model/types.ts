/** The wire shapes the console reads (contract §3, §7, §11, §12), as far as it reads them. */

export type LifecycleStatus =
  | 'TERMINAL_ACKNOWLEDGED'
  | 'CARD_PRESENTED'
  | 'APPROVAL_REQUESTED'
  | 'APPROVAL'
  | 'DECLINED'
  | 'TERMINAL_REJECTED'
  | 'TERMINAL_CANCELED';

export const FINAL_STATUSES: readonly LifecycleStatus[] = [
  'APPROVAL',
  'DECLINED',
  'TERMINAL_REJECTED',
  'TERMINAL_CANCELED',
];

export type ReadingType = 'CHIP' | 'CONTACTLESS' | 'MAGNETIC_STRIPE';

export interface TransactionEvent {
  event_id: string;
  previous_status: LifecycleStatus | '';
  occurred_at: string;
  status: LifecycleStatus;
  client_transaction_id: string;
  reading_type?: ReadingType;
  interaction_attempt?: number;
  failure_reason?: { type: string; code: string; message: string };
  terminal: { serialNumber: string };
  operation: {
    type: string;
    amount: { iva: number; subtotalIva: number; subtotalIva0: number; tip?: number };
    eventsWebHook: string;
  };
}

export interface TerminalRecord {
  serialNumber: string;
  model: string;
  room: string;
  pace: 'instant' | 'fast' | 'realistic';
  printer: 'ok' | 'cover_open' | 'paper_out';
  cardholder: 'auto' | 'manual';
  /** Contract §15: since when and from which client address `manual` holds, and until when. */
  cardholderManual: CardholderManual | null;
  link: 'up' | 'down' | 'offline';
}

export interface CardholderManual {
  setAt: string;
  setFrom: string;
  lapsesAt: string;
}

export interface SearchItem {
  client_transaction_id: string;
  transaction_reference: string | null;
  operation_type: string;
  status: LifecycleStatus | null;
  business_state: string | null;
  terminal_serial: string;
  amount: { total: number; tip: number };
  card: { pan: string; franchise: string; card_type: string; reading_type: ReadingType } | null;
  created_at: string;
  events: Array<{ event_id: string; status: LifecycleStatus; previous_status: string; occurred_at: string }>;
}

export interface SearchAnswer {
  items: SearchItem[];
  next_cursor: string | null;
}

export interface AttemptRecord {
  n: number;
  at: string;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
}

export interface DeliveryRecord {
  id: string;
  event_id: string;
  client_transaction_id: string;
  event_status: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: AttemptRecord[];
  next_attempt_at: string | null;
}

export type PrintCommand =
  | { type: 'text'; value: string; align?: 'left' | 'center' | 'right'; bold?: boolean }
  | { type: 'qr'; value: string }
  | { type: 'barcode'; value: string }
  | { type: 'feed'; lines: number }
  | { type: 'cut' };

export interface PrintJob {
  printJobId: string;
  status: 'PENDING' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';
  terminalSerial: string;
  externalReference: string;
  createdAt: string;
  updatedAt: string;
  errorCode?: string;
  printedText?: string;
  commands?: PrintCommand[];
}

export interface Clock {
  now: string;
  local: string;
  offset_seconds: number;
}

export type LiveMessage =
  | { type: 'hello' }
  | { type: 'ping' }
  | { type: 'event'; serial: string; event: TransactionEvent }
  | { type: 'delivery'; delivery_id: string; event_id: string; client_transaction_id: string }
  | { type: 'print'; job: PrintJob };
