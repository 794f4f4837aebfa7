import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBasicAuth,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { CreatePrintJobDto, PrintJobDoc, type PrintJobRecord } from '@tps/contracts/dto';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantAuthGuard } from '../auth/merchant-auth.guard';
import { TerminalSerialPipe } from '../terminals/terminal-serial.pipe';
import { PrintService } from './print-service';

@ApiTags('print')
@ApiBasicAuth()
@ApiHeader({ name: 'timestamp', required: true, description: 'Unix time in seconds' })
@UseGuards(MerchantAuthGuard)
@Controller('terminal/v1')
export class PrintController {
  constructor(private readonly print: PrintService) {}

  @Post('print')
  @HttpCode(202)
  @ApiOperation({ summary: 'Create a print job, Local Network form (the terminal bound to the credentials)' })
  @ApiAcceptedResponse({ type: PrintJobDoc, description: 'the job record' })
  createLocal(
    @CurrentMerchant() merchant: MerchantEntity,
    @Body() body: CreatePrintJobDto,
  ): Promise<PrintJobRecord> {
    return this.print.create(merchant, 'local', undefined, body);
  }

  @Post(':terminalSerial/print')
  @HttpCode(202)
  @ApiOperation({ summary: 'Create a print job, Cloud form' })
  @ApiParam({ name: 'terminalSerial', example: 'SIM0000002' })
  @ApiAcceptedResponse({ type: PrintJobDoc, description: 'the job record' })
  createCloud(
    @CurrentMerchant() merchant: MerchantEntity,
    @Param('terminalSerial', TerminalSerialPipe) serial: string,
    @Body() body: CreatePrintJobDto,
  ): Promise<PrintJobRecord> {
    return this.print.create(merchant, 'cloud', serial, body);
  }

  @Get('print/:printJobId')
  @ApiOperation({ summary: 'A print job, Local Network form' })
  @ApiOkResponse({ type: PrintJobDoc })
  getLocal(
    @CurrentMerchant() merchant: MerchantEntity,
    @Param('printJobId') printJobId: string,
  ): Promise<PrintJobRecord> {
    return this.print.get(merchant, undefined, printJobId);
  }

  @Get(':terminalSerial/print/:printJobId')
  @ApiOperation({ summary: 'A print job, Cloud form' })
  @ApiParam({ name: 'terminalSerial', example: 'SIM0000002' })
  @ApiOkResponse({ type: PrintJobDoc })
  getCloud(
    @CurrentMerchant() merchant: MerchantEntity,
    @Param('terminalSerial', TerminalSerialPipe) serial: string,
    @Param('printJobId') printJobId: string,
  ): Promise<PrintJobRecord> {
    return this.print.get(merchant, serial, printJobId);
  }
}
