import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { LIFECYCLE_STATUSES, OPERATION_TYPES, READING_TYPES } from '@tps/domain';

class FailureReasonDoc {
  @ApiProperty({ enum: ['TERMINAL', 'TRANSACTION', 'ACQUIRER'], example: 'ACQUIRER' }) type!: string;
  @ApiProperty({ example: '51' }) code!: string;
  @ApiProperty({ example: 'insufficient funds' }) message!: string;
}

class TerminalInfoDoc {
  @ApiProperty({ example: 'SIM0000001' }) serialNumber!: string;
  @ApiProperty({ example: 'SIM-A920' }) model!: string;
  @ApiProperty({ example: '02:00:00:00:00:01' }) wifiMac!: string;
  @ApiProperty({ example: 'front-desk' }) room!: string;
}

class ExtraTaxesPesosDoc {
  @ApiProperty({ description: 'decimal pesos' }) airportTax!: number;
  @ApiProperty({ description: 'decimal pesos' }) iac!: number;
  @ApiProperty({ description: 'decimal pesos' }) ice!: number;
  @ApiProperty({ description: 'decimal pesos' }) travelAgency!: number;
}

class AmountPesosDoc {
  @ApiProperty({ example: 16, description: 'decimal pesos' }) iva!: number;
  @ApiProperty({ example: 100 }) subtotalIva!: number;
  @ApiProperty({ example: 0 }) subtotalIva0!: number;
  @ApiProperty({ type: () => ExtraTaxesPesosDoc }) extraTaxes!: ExtraTaxesPesosDoc;
  @ApiPropertyOptional({ description: 'pos_tip only, decimal pesos' }) tip?: number;
}

class OperationSnapshotDoc {
  @ApiProperty({ enum: OPERATION_TYPES }) type!: string;
  @ApiProperty({ type: () => AmountPesosDoc }) amount!: AmountPesosDoc;
  @ApiProperty({ format: 'uuid' }) clientTransactionId!: string;
  @ApiProperty({ description: 'the events_webhook_url given, or ""' }) eventsWebHook!: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) metadata!: Record<
    string,
    string
  >;
  @ApiPropertyOptional({ format: 'uuid' }) transactionReference?: string;
}

/** OpenAPI description of the transaction event envelope: an async answer and every transaction webhook. */
export class TransactionEventDoc {
  @ApiProperty({ format: 'uuid' }) event_id!: string;
  @ApiProperty({ enum: ['', ...LIFECYCLE_STATUSES] }) previous_status!: string;
  @ApiProperty({
    format: 'date-time',
    example: '2026-11-22T08:00:00.123Z',
    description: 'ISO 8601 UTC with milliseconds, on the merchant clock',
  })
  occurred_at!: string;
  @ApiProperty({ enum: LIFECYCLE_STATUSES }) status!: string;
  @ApiProperty({ example: 'demo-merchant' }) merchant_id!: string;
  @ApiProperty({ format: 'uuid' }) client_transaction_id!: string;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: 'CARD_PRESENTED only: which card read' })
  interaction_attempt?: number;
  @ApiPropertyOptional({ enum: READING_TYPES, description: 'CARD_PRESENTED only' }) reading_type?: string;
  @ApiPropertyOptional({ type: () => FailureReasonDoc, description: 'TERMINAL_REJECTED and DECLINED only' })
  failure_reason?: FailureReasonDoc;
  @ApiProperty({ type: () => TerminalInfoDoc }) terminal!: TerminalInfoDoc;
  @ApiProperty({ type: () => OperationSnapshotDoc }) operation!: OperationSnapshotDoc;
}
