import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ERROR_CATALOGUE } from '@tps/domain';

const ERROR_TYPES = [...new Set(Object.values(ERROR_CATALOGUE).map((entry) => entry.type))];

/** OpenAPI description of the contract's one error body (contract §4). */
export class ErrorBodyDoc {
  @ApiProperty({ enum: ERROR_TYPES, example: 'PARAMETER' }) type!: string;
  @ApiProperty({ enum: Object.keys(ERROR_CATALOGUE), example: 'PAR-002' }) code!: string;
  @ApiProperty({ example: 'amount.iva must be an integer' }) message!: string;
  @ApiPropertyOptional({ description: 'the request field at fault, as a path', example: 'amount.iva' })
  param?: string;
  @ApiPropertyOptional({
    description: "the answer's `Request-Id` header: quote it to find the request in the service's log",
    example: '0f8c6a1e-2b7d-4c55-9e1a-3d2f4b6c8a90',
  })
  request_id?: string;
}
