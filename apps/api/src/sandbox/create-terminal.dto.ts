import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { TERMINAL_PACES, type TerminalPace } from '@tps/domain';
import { SERIAL_PATTERN } from '@tps/contracts/dto';

const MAX_ROOM_LENGTH = 64;

/** Body of `POST /sandbox/terminals` (contract §11). */
export class CreateTerminalDto {
  @ApiPropertyOptional({
    pattern: SERIAL_PATTERN.source,
    example: 'LANE0042',
    description: 'chosen when omitted',
  })
  @IsOptional()
  @IsString()
  @Matches(SERIAL_PATTERN, { message: 'serial must be 1 to 32 letters, digits, "-" or "_"' })
  serial?: string;

  @ApiPropertyOptional({ enum: TERMINAL_PACES, description: 'realistic when omitted' })
  @IsOptional()
  @IsIn(TERMINAL_PACES)
  pace?: TerminalPace;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: MAX_ROOM_LENGTH,
    example: 'front-desk',
    description: 'front-desk when omitted',
  })
  @IsOptional()
  @IsString()
  @Length(1, MAX_ROOM_LENGTH)
  room?: string;
}
