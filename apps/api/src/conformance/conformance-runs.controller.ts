import { Body, Controller, Get, HttpCode, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantAuthGuard } from '../auth/merchant-auth.guard';
import { clientAddressOf } from '../http/client-address';
import { ApiErrors } from '../openapi/api-errors.decorator';
import type { RunReport } from './conformance-report';
import { StartConformanceRunDto } from './conformance-run.dto';
import { RunListDoc, RunReportDoc, StartedRunDoc } from './conformance-run.doc';
import { ConformanceRuns, type StartedRun } from './conformance-runs';
import { junitReport } from './junit-report';

const XML = 'application/xml';
const JUNIT_EXAMPLE = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="conformance run 0b3f6a52-3c1e-4f0e-9a55-7c1d2e4b8f10" tests="1" failures="1">
  <testsuite name="webhook receiver conformance: https://pos.example.com/webhooks/payments" tests="1" failures="1" errors="0" timestamp="2026-11-22T08:00:00.123Z">
    <testcase classname="conformance" name="bad-signature">
      <failure message="CARD_PRESENTED signed with another secret: 200 in 2 ms" type="bad-signature">…</failure>
    </testcase>
  </testsuite>
</testsuites>`;

const JUNIT_ANSWER = { schema: { type: 'string' }, example: JUNIT_EXAMPLE } as const;

/** The webhook-consumer conformance run (contract §17): the account tests its own receiver. */
@ApiTags('sandbox')
@UseGuards(MerchantAuthGuard)
@ApiExtraModels(RunReportDoc)
@Controller('sandbox/conformance-runs')
export class ConformanceRunsController {
  constructor(private readonly runs: ConformanceRuns) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: "Start a conformance run against the account's webhook receiver",
    description:
      "Makes real transactions of the account on a terminal of its own and sends their events to `url`, signed with the account's webhook secret (made when there is none), as each case says; watches the account's transaction searches. At most 60 s; one run at a time per account and, in a hosted sandbox, per client address whichever of its accounts asks (`conformance_runs_per_address`); four in the whole sandbox (429 RATE-001 with Retry-After otherwise). Follow it with `GET /sandbox/conformance-runs/{id}`.",
  })
  @ApiCreatedResponse({ type: StartedRunDoc, description: 'the run, started' })
  @ApiErrors('PAR-004')
  start(
    @CurrentMerchant() merchant: MerchantEntity,
    @Body() body: StartConformanceRunDto,
    @Req() request: Request,
  ): Promise<StartedRun> {
    return this.runs.start(merchant, clientAddressOf(request), body.url, body.cases, body.report_url);
  }

  @Get()
  @ApiOperation({ summary: "The account's conformance runs, newest first", description: 'The last 20 runs.' })
  @ApiOkResponse({ type: RunListDoc, description: "the account's runs" })
  async list(@CurrentMerchant() merchant: MerchantEntity): Promise<{ items: RunReport[] }> {
    return { items: await this.runs.list(merchant) };
  }

  @Get(':id')
  @ApiOperation({
    summary: 'A conformance run: its score and each case, as JSON or as JUnit XML',
    description:
      'JSON by default; JUnit XML (one test case per case, for CI report viewers) with `Accept: application/xml`. While `state` is `running`, `cases` holds the cases decided so far.',
  })
  @ApiProduces('application/json', XML)
  @ApiOkResponse({
    description: 'the run',
    content: { 'application/json': { schema: { $ref: getSchemaPath(RunReportDoc) } }, [XML]: JUNIT_ANSWER },
  })
  @ApiErrors('NF-005')
  async read(
    @CurrentMerchant() merchant: MerchantEntity,
    @Param('id') id: string,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<RunReport | string> {
    const report = await this.runs.read(merchant, id);
    if (request.accepts(['application/json', XML, 'text/xml']) === 'application/json') return report;
    response.type(XML);
    return junitReport(report);
  }

  @Get(':id/junit')
  @ApiOperation({
    summary: 'A conformance run as JUnit XML',
    description: 'The same as `GET /sandbox/conformance-runs/{id}` with `Accept: application/xml`.',
  })
  @ApiProduces(XML)
  @ApiOkResponse({ description: 'the run as JUnit XML', content: { [XML]: JUNIT_ANSWER } })
  @ApiErrors('NF-005')
  async junit(
    @CurrentMerchant() merchant: MerchantEntity,
    @Param('id') id: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    const report = await this.runs.read(merchant, id);
    response.type(XML);
    return junitReport(report);
  }
}
