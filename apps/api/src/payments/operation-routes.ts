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
}

const BOTH: readonly OperationMode[] = ['sync', 'async'];

export const OPERATION_ROUTES: readonly OperationRoute[] = [
  { type: 'charge', modes: BOTH, body: AsyncChargeDto, summary: 'Charge' },
  { type: 'authorization', modes: BOTH, body: AsyncChargeDto, summary: 'Pre-authorization' },
  { type: 'capture', modes: BOTH, body: CaptureDto, summary: 'Capture of a pre-authorization' },
  {
    type: 're_authorization',
    modes: BOTH,
    body: ReAuthorizationDto,
    summary: 'Re-authorization: a new authorized total, validity restarted',
  },
  { type: 'pos_tip', modes: BOTH, body: PosTipDto, summary: 'Tip added to a settled charge or capture' },
  {
    type: 'void',
    modes: BOTH,
    body: VoidDto,
    summary: 'Void, the day of the approval before 22:00 Mexico City',
  },
  { type: 'refund', modes: ['sync'], body: RefundDto, summary: 'Refund of a charge or a capture' },
];
