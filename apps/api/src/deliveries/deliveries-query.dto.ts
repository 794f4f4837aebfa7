import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';

export class DeliveriesQueryDto {
  @ApiProperty({ format: 'uuid', description: 'the transaction whose deliveries to list' })
  @IsUUID()
  client_transaction_id!: string;
}
