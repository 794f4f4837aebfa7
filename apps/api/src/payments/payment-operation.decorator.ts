import { HttpCode, applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AuthorizationResponseDoc, TransactionEventDoc } from '@tps/contracts/dto';
import { isFollowUp, type OperationMode, type OperationType } from '@tps/domain';
import { RecordedByClientId } from '../auth/recorded-by-client-id.decorator';
import {
  ApiErrors,
  FOLLOW_UP_ERRORS,
  PAYMENT_ERRORS,
  SYNC_OUTCOME_ERRORS,
} from '../openapi/api-errors.decorator';

type PaymentType = Exclude<OperationType, 'abort'>;

/** What each operation does and what it names, for the OpenAPI document. */
const OPERATIONS: Record<PaymentType, { summary: string; description: string }> = {
  charge: {
    summary: 'Charge',
    description:
      'Charges `amount` on the terminal: the cardholder presents a card and the acquirer answers. The centavos of the total choose a sandbox scenario (decline, rejection, cancel...).',
  },
  authorization: {
    summary: 'Pre-authorization',
    description:
      'Authorizes `amount` without settling it: valid 7 days for debit cards and 28 for credit, to be captured, re-authorized or voided by its transaction_reference.',
  },
  capture: {
    summary: 'Capture of a pre-authorization',
    description:
      'Captures the authorization named by `transaction_reference`, once, for at most the authorized amount (all of it when `amount` is omitted).',
  },
  re_authorization: {
    summary: 'Re-authorization: a new authorized total, validity restarted',
    description:
      'Sets a new authorized total on the authorization named by `transaction_reference` and restarts its validity.',
  },
  pos_tip: {
    summary: 'Tip added to a settled charge or capture',
    description: 'Adds `tip` (centavos), once, to the charge or capture named by `transaction_reference`.',
  },
  void: {
    summary: 'Void, the day of the approval before 22:00 Mexico City',
    description:
      'Voids the charge, capture or authorization named by `transaction_reference` on the day of its approval, before 22:00 Mexico City (TRX-003 after: refund instead).',
  },
  refund: {
    summary: 'Refund of a charge or a capture',
    description:
      'Refunds the charge or capture named by `transaction_reference`: refunds add up to at most its amount plus tip (all that is left when `amount` is omitted).',
  },
};

const MODES: Record<OperationMode, string> = {
  sync: "Answers the acquirer's Authorization response once the transaction ends (a decline is 200 with `approved: false`); an end on the terminal is 409 with its TER code. A repeat with the same client_transaction_id answers the first outcome.",
  async:
    'Answers the TERMINAL_ACKNOWLEDGED event at once; later events go to `events_webhook_url`. A repeat with the same client_transaction_id answers the same acknowledgement.',
};

/** Everything a payment operation's handler declares besides its path: status, document, errors. */
export const PaymentOperation = (type: PaymentType, mode: OperationMode): MethodDecorator =>
  applyDecorators(
    HttpCode(200),
    RecordedByClientId(),
    ApiOperation({
      summary: `${OPERATIONS[type].summary} (${mode})`,
      description: `${OPERATIONS[type].description} ${MODES[mode]}`,
    }),
    mode === 'async'
      ? ApiOkResponse({ type: TransactionEventDoc, description: 'the TERMINAL_ACKNOWLEDGED event' })
      : ApiOkResponse({ type: AuthorizationResponseDoc, description: 'the Authorization response' }),
    ApiErrors(
      isFollowUp(type) ? FOLLOW_UP_ERRORS : PAYMENT_ERRORS,
      mode === 'sync' ? SYNC_OUTCOME_ERRORS : [],
    ),
  );
