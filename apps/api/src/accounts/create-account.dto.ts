import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { TERMINAL_PACES, type TerminalPace } from '@tps/domain';

export const MAX_ACCOUNT_TERMINALS = 20;

/** Body of `POST /sandbox/accounts` (contract §14). */
export class CreateAccountDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_ACCOUNT_TERMINALS, default: 2 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ACCOUNT_TERMINALS)
  terminals?: number;

  @ApiPropertyOptional({ enum: TERMINAL_PACES, default: 'instant' })
  @IsOptional()
  @IsIn(TERMINAL_PACES)
  pace?: TerminalPace;
}
