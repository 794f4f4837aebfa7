import type { Type } from '@nestjs/common';
import type { OperationMode, OperationType } from '@tps/domain';
import {
  AsyncChargeDto,
  CaptureDto,
  PosTipDto,
  ReAuthorizationDto,
  RefundDto,
  VoidDto,
  type OperationDto,
} from '@tps/contracts/dto';

/** One payment operation's routes (contract §2): served in both forms, under each of its modes. */
export interface OperationRoute {
  type: Exclude<OperationType, 'abort'>;
  modes: readonly OperationMode[];
  body: Type<OperationDto | AsyncChargeDto>;
  summary: string;
  /** What the operation does and what it names, for the OpenAPI document. */
  description: string;
}

const BOTH: readonly OperationMode[] = ['sync', 'async'];

export const OPERATION_ROUTES: readonly OperationRoute[] = [
  {
    type: 'charge',
    modes: BOTH,
    body: AsyncChargeDto,
    summary: 'Charge',
    description:
      'Charges `amount` on the terminal: the cardholder presents a card and the acquirer answers. The centavos of the total choose a sandbox scenario (decline, rejection, cancel...).',
  },
  {
    type: 'authorization',
    modes: BOTH,
    body: AsyncChargeDto,
    summary: 'Pre-authorization',
    description:
      'Authorizes `amount` without settling it: valid 7 days for debit cards and 28 for credit, to be captured, re-authorized or voided by its transaction_reference.',
  },
  {
    type: 'capture',
    modes: BOTH,
    body: CaptureDto,
    summary: 'Capture of a pre-authorization',
    description:
      'Captures the authorization named by `transaction_reference`, once, for at most the authorized amount (all of it when `amount` is omitted).',
  },
  {
    type: 're_authorization',
    modes: BOTH,
    body: ReAuthorizationDto,
    summary: 'Re-authorization: a new authorized total, validity restarted',
    description:
      'Sets a new authorized total on the authorization named by `transaction_reference` and restarts its validity.',
  },
  {
    type: 'pos_tip',
    modes: BOTH,
    body: PosTipDto,
    summary: 'Tip added to a settled charge or capture',
    description: 'Adds `tip` (centavos), once, to the charge or capture named by `transaction_reference`.',
  },
  {
    type: 'void',
    modes: BOTH,
    body: VoidDto,
    summary: 'Void, the day of the approval before 22:00 Mexico City',
    description:
      'Voids the charge, capture or authorization named by `transaction_reference` on the day of its approval, before 22:00 Mexico City (TRX-003 after: refund instead).',
  },
  {
    type: 'refund',
    modes: ['sync'],
    body: RefundDto,
    summary: 'Refund of a charge or a capture',
    description:
      'Refunds the charge or capture named by `transaction_reference`: refunds add up to at most its amount plus tip (all that is left when `amount` is omitted).',
  },
];
