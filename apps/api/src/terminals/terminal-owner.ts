/**
 * What the terminals feature needs of an authenticated merchant (the auth feature's merchant row
 * is one). Kept here, so that terminals does not depend on auth, which reads a request's terminal.
 */
export interface TerminalOwner {
  merchantId: string;
  /** The terminal of this credential's Local-form requests. */
  boundTerminalSerial: string | null;
}
