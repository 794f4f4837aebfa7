import { Controller, Sse, UseGuards, type MessageEvent } from '@nestjs/common';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { interval, map, merge, of, type Observable } from 'rxjs';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantAuthGuard } from '../auth/merchant-auth.guard';
import { ConsoleStream } from './console-stream';

/** A comment-free keep-alive, so that proxies and the browser keep an idle stream open. */
const KEEP_ALIVE_MS = 15_000;

@ApiTags('sandbox')
@ApiBasicAuth()
@UseGuards(MerchantAuthGuard)
@Controller('sandbox/events')
export class ConsoleEventsController {
  constructor(private readonly stream: ConsoleStream) {}

  /**
   * Server-sent events of the merchant's own activity: each stored transaction event, each
   * webhook attempt and each print job change. Signed like every route; a browser reads it
   * with fetch, since EventSource cannot send the Authorization header.
   */
  @Sse()
  @ApiOperation({
    summary: "Live stream (text/event-stream) of the merchant's events, webhook attempts and print jobs",
  })
  events(@CurrentMerchant() merchant: MerchantEntity): Observable<MessageEvent> {
    return merge(
      of({ type: 'hello' as const }),
      interval(KEEP_ALIVE_MS).pipe(map(() => ({ type: 'ping' as const }))),
      this.stream.forMerchant(merchant.merchantId),
    ).pipe(map((data) => ({ data })));
  }
}
