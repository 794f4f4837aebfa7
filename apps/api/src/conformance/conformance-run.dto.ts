import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import { CASE_NAMES, type CaseName } from './conformance-cases';

/** Body of `POST /sandbox/conformance-runs` (contract §17). */
export class StartConformanceRunDto {
  @ApiProperty({
    example: 'https://pos.example.com/webhooks/payments',
    description: "the receiver under test; the profile's webhook URL rules apply (PAR-004)",
  })
  @IsString()
  @MaxLength(2048)
  url!: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', enum: [...CASE_NAMES] },
    example: ['gap-reconcile', 'out-of-order'],
    description: 'the cases to run; every case when omitted',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(CASE_NAMES.length)
  @ArrayUnique()
  @IsIn(CASE_NAMES, { each: true })
  cases?: CaseName[];
}
