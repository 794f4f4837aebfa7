import { ApiProperty } from '@nestjs/swagger';
import { ATTEMPT_ERROR_KINDS, type AttemptErrorKind } from '@tps/delivery';
import type { DeliveryWithAttempts } from '../webhooks/delivery.repository';
import type { DeliveryState } from '../webhooks/delivery.entity';

/** One attempt as the sandbox answers it (contract §11). */
export class AttemptRecord {
  @ApiProperty({ description: 'from 1' })
  n!: number;

  @ApiProperty({ description: 'when the attempt started, ISO 8601 UTC' })
  at!: string;

  @ApiProperty({ type: Number, nullable: true })
  status_code!: number | null;

  @ApiProperty({ enum: ATTEMPT_ERROR_KINDS, nullable: true })
  error!: AttemptErrorKind | null;

  @ApiProperty()
  latency_ms!: number;
}

/** One delivery as the sandbox answers it (contract §11). */
export class DeliveryRecord {
  @ApiProperty()
  id!: string;

  @ApiProperty()
  event_id!: string;

  @ApiProperty()
  client_transaction_id!: string;

  @ApiProperty()
  event_status!: string;

  @ApiProperty({ enum: ['pending', 'delivered', 'failed'] })
  state!: DeliveryState;

  @ApiProperty({ type: [AttemptRecord] })
  attempts!: AttemptRecord[];

  @ApiProperty({ type: String, nullable: true, description: 'ISO 8601 UTC while pending' })
  next_attempt_at!: string | null;
}

export class DeliveryList {
  @ApiProperty({ type: [DeliveryRecord] })
  items!: DeliveryRecord[];
}

export function deliveryRecord({ delivery, attempts }: DeliveryWithAttempts): DeliveryRecord {
  return {
    id: delivery.id,
    event_id: delivery.eventId,
    client_transaction_id: delivery.clientTransactionId,
    event_status: delivery.eventStatus,
    state: delivery.state,
    attempts: attempts.map((attempt) => ({
      n: attempt.n,
      at: attempt.at,
      status_code: attempt.statusCode,
      error: attempt.error,
      latency_ms: attempt.latencyMs,
    })),
    next_attempt_at: delivery.state === 'pending' ? delivery.nextAttemptAt : null,
  };
}
