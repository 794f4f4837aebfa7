import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, ValidateIf } from 'class-validator';
import { ApiSchemaRules } from '@tps/contracts/dto';
import { ContractError, READING_TYPES, type ReadingType } from '@tps/domain';
import type { CardAction } from '@tps/link';

/** Body of `POST /sandbox/terminals/{serial}/card`: the cardholder at the terminal's screen. */
const READING_TYPE = { type: 'string', enum: READING_TYPES };

// Contract §11: presenting a card says how it is read. Each branch names every field, so that
// generators type it as a union and example checkers see no field left unevaluated.
@ApiSchemaRules({
  oneOf: [
    { properties: { action: { const: 'cancel' }, reading_type: READING_TYPE }, required: ['action'] },
    {
      properties: { action: { const: 'present' }, reading_type: READING_TYPE },
      required: ['action', 'reading_type'],
    },
  ],
})
export class CardActionDto {
  @ApiProperty({ enum: ['present', 'cancel'] })
  @IsIn(['present', 'cancel'])
  action!: CardAction['action'];

  @ApiPropertyOptional({ enum: READING_TYPES, description: 'required with action present' })
  // Checked whenever given; required to present a card.
  @ValidateIf((body: CardActionDto) => body.action === 'present' || body.reading_type !== undefined)
  @IsDefined()
  @IsIn(READING_TYPES)
  reading_type?: ReadingType;
}

export function cardAction(body: CardActionDto): CardAction {
  if (body.action === 'cancel') return { action: 'cancel' };
  if (body.reading_type === undefined) {
    throw new ContractError('PAR-002', 'reading_type is required to present a card', 'reading_type');
  }
  return { action: 'present', readingType: body.reading_type };
}
