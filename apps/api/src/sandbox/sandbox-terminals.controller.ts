import { Body, Controller, Param, Patch, UseGuards } from '@nestjs/common';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantAuthGuard } from '../auth/merchant-auth.guard';
import { TerminalSerialPipe } from '../terminals/terminal-serial.pipe';
import { SandboxTerminals, type TerminalRecord } from './sandbox-terminals';
import { UpdateTerminalDto } from './update-terminal.dto';

@ApiTags('sandbox')
@ApiBasicAuth()
@UseGuards(MerchantAuthGuard)
@Controller('sandbox/terminals')
export class SandboxTerminalsController {
  constructor(private readonly terminals: SandboxTerminals) {}

  @Patch(':serial')
  @ApiOperation({ summary: "Change a simulated terminal's settings (pace, printer)" })
  update(
    @CurrentMerchant() merchant: MerchantEntity,
    @Param('serial', TerminalSerialPipe) serial: string,
    @Body() body: UpdateTerminalDto,
  ): Promise<TerminalRecord> {
    return this.terminals.update(merchant, serial, body);
  }
}
