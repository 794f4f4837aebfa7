import type { ObjectLiteral } from 'typeorm';

/** The merchant's columns the lookup names. */
export interface LookedUpMerchant extends ObjectLiteral {
  merchantId: string;
  boundTerminalSerial: string | null;
}

/** The terminal's columns the lookup names. */
export interface LookedUpTerminal extends ObjectLiteral {
  merchantId: string;
  serialNumber: string;
}

/** A merchant, with the terminal a request names if the merchant has it. */
export interface MerchantWithTerminal<Merchant, Terminal> {
  merchant: Merchant;
  terminal: Terminal | null;
}

/** The merchant a signed request names (contract §5), read on every one. */
export abstract class MerchantLookup<Merchant extends LookedUpMerchant, Terminal extends LookedUpTerminal> {
  /**
   * The merchant, with the terminal `serial` names, else the one bound to its credentials (none
   * when the merchant has no such terminal); null when there is no such merchant.
   */
  abstract withTerminal(
    merchantId: string,
    serial: string | undefined,
  ): Promise<MerchantWithTerminal<Merchant, Terminal> | null>;
  /** Whether the merchant is stored, without reading its secrets. */
  abstract exists(merchantId: string): Promise<boolean>;
}
