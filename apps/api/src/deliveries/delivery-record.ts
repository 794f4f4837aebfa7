import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ATTEMPT_ERROR_KINDS, type AttemptErrorKind, type ListenerAnswer } from '@tps/delivery';
import { LIFECYCLE_STATUSES } from '@tps/domain';
import type { DeliveryWithAttempts } from '../webhooks/delivery.repository';
import type { DeliveryState } from '../webhooks/delivery.entity';

/** One `listen` connection's answer to its copy of an attempt (contract §6.1). */
export class ListenerAnswerRecord {
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "the local receiver's status; null when none came",
  })
  status_code!: number | null;

  @ApiProperty({ enum: ATTEMPT_ERROR_KINDS, nullable: true })
  error!: AttemptErrorKind | null;

  @ApiProperty({ type: 'integer', minimum: 0 })
  latency_ms!: number;
}

/** One attempt as the sandbox answers it (contract §11). */
export class AttemptRecord {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'from 1' })
  n!: number;

  @ApiProperty({ format: 'date-time', description: 'when the attempt started, UTC' })
  at!: string;

  @ApiProperty({ type: 'integer', nullable: true, description: "the receiver's status; null when none came" })
  status_code!: number | null;

  @ApiProperty({ enum: ATTEMPT_ERROR_KINDS, nullable: true })
  error!: AttemptErrorKind | null;

  @ApiProperty({ type: 'integer', minimum: 0 })
  latency_ms!: number;

  @ApiPropertyOptional({
    type: [ListenerAnswerRecord],
    description:
      'what each `listen` connection answered to its copy, in the order they came; absent when none was open (contract §6.1)',
  })
  listeners?: ListenerAnswerRecord[];
}

/** One delivery as the sandbox answers it (contract §11). */
export class DeliveryRecord {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'uuid' })
  event_id!: string;

  @ApiProperty({ format: 'uuid' })
  client_transaction_id!: string;

  @ApiProperty({ enum: LIFECYCLE_STATUSES })
  event_status!: string;

  @ApiProperty({ enum: ['pending', 'delivered', 'failed'] })
  state!: DeliveryState;

  @ApiProperty({ type: [AttemptRecord] })
  attempts!: AttemptRecord[];

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'UTC, while pending' })
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
      ...(attempt.listenerAnswers === null
        ? {}
        : { listeners: attempt.listenerAnswers.map(listenerAnswerRecord) }),
    })),
    next_attempt_at: delivery.state === 'pending' ? delivery.nextAttemptAt : null,
  };
}

function listenerAnswerRecord({ outcome, latencyMs }: ListenerAnswer): ListenerAnswerRecord {
  return 'statusCode' in outcome
    ? { status_code: outcome.statusCode, error: null, latency_ms: latencyMs }
    : { status_code: null, error: outcome.error, latency_ms: latencyMs };
}
