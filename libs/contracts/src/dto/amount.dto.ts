import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsObject, IsOptional, Max, Min, ValidateNested } from 'class-validator';
import { ZERO_AMOUNT, type AmountCentavos } from '@tps/domain';
import { all } from './all-decorators';
import { MAX_AMOUNT_FIELD_CENTAVOS, MAX_TOTAL_CENTAVOS } from './limits';
import { ApiSchemaRules } from './schema-rules';

/** `example`: what a schema sampler puts in the field; together they make a total the sandbox approves. */
function CentavosField(required: boolean, example = 0): PropertyDecorator {
  return all(
    IsInt(),
    Min(0),
    Max(MAX_AMOUNT_FIELD_CENTAVOS),
    (required ? ApiProperty : ApiPropertyOptional)({
      type: 'integer',
      minimum: 0,
      maximum: MAX_AMOUNT_FIELD_CENTAVOS,
      description: 'centavos (smallest MXN unit)',
      example,
    }),
    ...(required ? [] : [IsOptional()]),
  );
}

export class ExtraTaxesDto {
  @CentavosField(false) airport_tax?: number;
  @CentavosField(false) iac?: number;
  @CentavosField(false) ice?: number;
  @CentavosField(false) travel_agency?: number;
}

const ZERO = { const: 0 };

/**
 * Contract §2.1: the total, every field summed, is above 0 (stated below: not every field zero) and
 * at most the maximum, a sum JSON Schema cannot state (the description says it); PAR-003 otherwise.
 */
@ApiSchemaRules({
  description: `The total, the sum of every field, must be above 0 and at most ${MAX_TOTAL_CENTAVOS} centavos (PAR-003).`,
  not: {
    properties: {
      iva: ZERO,
      subtotal_iva: ZERO,
      subtotal_iva0: ZERO,
      extra_taxes: { properties: { airport_tax: ZERO, iac: ZERO, ice: ZERO, travel_agency: ZERO } },
    },
  },
})
export class AmountDto {
  @CentavosField(true, 1600) iva!: number;
  @CentavosField(true, 10000) subtotal_iva!: number;
  @CentavosField(true) subtotal_iva0!: number;

  @ApiPropertyOptional({ type: () => ExtraTaxesDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ExtraTaxesDto)
  extra_taxes?: ExtraTaxesDto;
}

export function amountFromDto(dto: AmountDto): AmountCentavos {
  const t = dto.extra_taxes;
  return {
    iva: dto.iva,
    subtotalIva: dto.subtotal_iva,
    subtotalIva0: dto.subtotal_iva0,
    extraTaxes: {
      airportTax: t?.airport_tax ?? ZERO_AMOUNT.extraTaxes.airportTax,
      iac: t?.iac ?? ZERO_AMOUNT.extraTaxes.iac,
      ice: t?.ice ?? ZERO_AMOUNT.extraTaxes.ice,
      travelAgency: t?.travel_agency ?? ZERO_AMOUNT.extraTaxes.travelAgency,
    },
  };
}
