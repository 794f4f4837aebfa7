import { ApiProperty } from '@nestjs/swagger';
import { BUSINESS_STATES, LIFECYCLE_STATUSES, OPERATION_TYPES, READING_TYPES } from '@tps/domain';

const centavos = (description = 'centavos') => ApiProperty({ type: 'integer', minimum: 0, description });

class SearchExtraTaxesDoc {
  @centavos() airport_tax!: number;
  @centavos() iac!: number;
  @centavos() ice!: number;
  @centavos() travel_agency!: number;
}

class SearchAmountDoc {
  @centavos() iva!: number;
  @centavos() subtotal_iva!: number;
  @centavos() subtotal_iva0!: number;
  @ApiProperty({ type: () => SearchExtraTaxesDoc }) extra_taxes!: SearchExtraTaxesDoc;
  @centavos('centavos; 0 without a tip') tip!: number;
  @centavos('centavos: every amount field plus the tip') total!: number;
}

class SearchCardDoc {
  @ApiProperty({ description: 'masked: last four digits only', example: '************4242' }) pan!: string;
  @ApiProperty({ example: 'VISA' }) franchise!: string;
  @ApiProperty({ example: 'CREDIT' }) card_type!: string;
  @ApiProperty({ enum: READING_TYPES, nullable: true }) reading_type!: string | null;
}

class SearchEventDoc {
  @ApiProperty({ format: 'uuid' }) event_id!: string;
  @ApiProperty({ enum: LIFECYCLE_STATUSES }) status!: string;
  @ApiProperty({ enum: ['', ...LIFECYCLE_STATUSES] }) previous_status!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-22T08:00:00.123Z' }) occurred_at!: string;
}

class SearchItemDoc {
  @ApiProperty({ format: 'uuid' }) client_transaction_id!: string;
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true, description: 'null unless approved' })
  transaction_reference!: string | null;
  @ApiProperty({ enum: OPERATION_TYPES }) operation_type!: string;
  @ApiProperty({ enum: LIFECYCLE_STATUSES, nullable: true, description: 'the last event' })
  status!: string | null;
  @ApiProperty({
    enum: BUSINESS_STATES,
    nullable: true,
    description: 'null for local search (the terminal keeps no business state) and for what was not approved',
  })
  business_state!: string | null;
  @ApiProperty({ example: 'SIM0000002' }) terminal_serial!: string;
  @ApiProperty({ type: () => SearchAmountDoc }) amount!: SearchAmountDoc;
  @ApiProperty({ type: () => SearchCardDoc, nullable: true, description: 'null when no acquirer answered' })
  card!: SearchCardDoc | null;
  @ApiProperty({ format: 'date-time', description: 'on the merchant clock' }) created_at!: string;
  @ApiProperty({ type: () => [SearchEventDoc], description: 'in order' }) events!: SearchEventDoc[];
}

/** OpenAPI description of a transaction search answer (contract §7). */
export class SearchAnswerDoc {
  @ApiProperty({ type: () => [SearchItemDoc], description: 'newest first' }) items!: SearchItemDoc[];
  @ApiProperty({ type: 'string', nullable: true, description: 'pass it as `cursor` for the next page' })
  next_cursor!: string | null;
}
