import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AttemptErrorKind, ListenerAnswer } from '@tps/delivery';

/** One attempt of a delivery, recorded once its outcome is known. */
@Entity('webhook_delivery_attempts')
export class DeliveryAttemptEntity {
  @PrimaryColumn({ name: 'delivery_id', type: 'varchar', length: 36 })
  deliveryId!: string;

  /** The attempt's number, from 1. */
  @PrimaryColumn({ type: 'integer' })
  n!: number;

  /** When it started, ISO 8601 UTC. */
  @Column({ type: 'varchar', length: 24 })
  at!: string;

  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode!: number | null;

  @Column({ type: 'varchar', length: 24, nullable: true })
  error!: AttemptErrorKind | null;

  @Column({ name: 'latency_ms', type: 'integer' })
  latencyMs!: number;

  /** The first 1 KB of the receiver's answer. */
  @Column({ name: 'answer_excerpt', type: 'text' })
  answerExcerpt!: string;

  /** Each `listen` connection's answer to its copy (contract §6.1); null when none was open. */
  @Column({ name: 'listener_answers', type: 'simple-json', nullable: true })
  listenerAnswers!: ListenerAnswer[] | null;

  /** When the next attempt was scheduled, ISO 8601 UTC; null when this one ended the delivery. */
  @Column({ name: 'next_attempt_at', type: 'varchar', length: 24, nullable: true })
  nextAttemptAt!: string | null;
}
