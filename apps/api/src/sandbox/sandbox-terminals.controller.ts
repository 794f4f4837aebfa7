import { Body, Controller, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { CardReply } from '@tps/link';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantAuthGuard } from '../auth/merchant-auth.guard';
import { TerminalSerialPipe } from '../terminals/terminal-serial.pipe';
import { CardActionDto, cardAction } from './card-action.dto';
import { CreateTerminalDto } from './create-terminal.dto';
import { SandboxTerminals, type TerminalRecord } from './sandbox-terminals';
import { UpdateTerminalDto } from './update-terminal.dto';

@ApiTags('sandbox')
@ApiBasicAuth()
@UseGuards(MerchantAuthGuard)
@Controller('sandbox/terminals')
export class SandboxTerminalsController {
  constructor(private readonly terminals: SandboxTerminals) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: "Add a simulated terminal to the merchant's fleet; it links up within a second" })
  create(
    @CurrentMerchant() merchant: MerchantEntity,
    @Body() body: CreateTerminalDto,
  ): Promise<TerminalRecord> {
    return this.terminals.create(merchant, body);
  }

  @Get()
  @ApiOperation({ summary: "List the merchant's fleet with link state, pace and printer" })
  list(@CurrentMerchant() merchant: MerchantEntity): Promise<TerminalRecord[]> {
    return this.terminals.list(merchant);
  }

  @Patch(':serial')
  @ApiOperation({ summary: "Change a simulated terminal's settings (pace, printer)" })
  update(
    @CurrentMerchant() merchant: MerchantEntity,
    @Param('serial', TerminalSerialPipe) serial: string,
    @Body() body: UpdateTerminalDto,
  ): Promise<TerminalRecord> {
    return this.terminals.update(merchant, serial, body);
  }

  @Post(':serial/card')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Act as the cardholder: present a card or cancel (409 TRX-006 when nothing waits)',
  })
  card(
    @CurrentMerchant() merchant: MerchantEntity,
    @Param('serial', TerminalSerialPipe) serial: string,
    @Body() body: CardActionDto,
  ): Promise<CardReply> {
    return this.terminals.card(merchant, serial, cardAction(body));
  }

  @Post(':serial/offline')
  @HttpCode(200)
  @ApiOperation({ summary: "Cut the terminal's link to the service; its events wait in its own store" })
  offline(
    @CurrentMerchant() merchant: MerchantEntity,
    @Param('serial', TerminalSerialPipe) serial: string,
  ): Promise<TerminalRecord> {
    return this.terminals.setOffline(merchant, serial, true);
  }

  @Post(':serial/online')
  @HttpCode(200)
  @ApiOperation({ summary: "Restore the terminal's link; its queued events replay in order" })
  online(
    @CurrentMerchant() merchant: MerchantEntity,
    @Param('serial', TerminalSerialPipe) serial: string,
  ): Promise<TerminalRecord> {
    return this.terminals.setOffline(merchant, serial, false);
  }
}
