import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsObject, IsOptional, Max, Min, ValidateNested } from 'class-validator';
import { ZERO_AMOUNT, type AmountCentavos } from '@tps/domain';
import { all } from './all-decorators';
import { MAX_AMOUNT_FIELD_CENTAVOS } from './limits';

function CentavosField(required: boolean): PropertyDecorator {
  return all(
    IsInt(),
    Min(0),
    Max(MAX_AMOUNT_FIELD_CENTAVOS),
    (required ? ApiProperty : ApiPropertyOptional)({
      type: 'integer',
      minimum: 0,
      maximum: MAX_AMOUNT_FIELD_CENTAVOS,
      description: 'centavos (smallest MXN unit)',
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

export class AmountDto {
  @CentavosField(true) iva!: number;
  @CentavosField(true) subtotal_iva!: number;
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
