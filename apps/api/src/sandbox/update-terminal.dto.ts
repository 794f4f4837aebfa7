import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { CARDHOLDER_MODES, TERMINAL_PACES, type CardholderMode, type TerminalPace } from '@tps/domain';

export const PRINTER_CONDITIONS = ['ok', 'cover_open', 'paper_out'] as const;
export type PrinterCondition = (typeof PRINTER_CONDITIONS)[number];

export class UpdateTerminalDto {
  @ApiPropertyOptional({ enum: TERMINAL_PACES })
  @IsOptional()
  @IsIn(TERMINAL_PACES)
  pace?: TerminalPace;

  @ApiPropertyOptional({ enum: PRINTER_CONDITIONS })
  @IsOptional()
  @IsIn(PRINTER_CONDITIONS)
  printer?: PrinterCondition;

  @ApiPropertyOptional({
    enum: CARDHOLDER_MODES,
    description: 'manual: every operation waits at TERMINAL_ACKNOWLEDGED for POST .../card, up to 60 s',
  })
  @IsOptional()
  @IsIn(CARDHOLDER_MODES)
  cardholder?: CardholderMode;
}
