import { Controller, Sse, UseGuards, type MessageEvent } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { interval, map, merge, of, type Observable } from 'rxjs';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantAuthGuard } from '../auth/merchant-auth.guard';
import { ConsoleStream } from './console-stream';

/** A comment-free keep-alive, so that proxies and the browser keep an idle stream open. */
const KEEP_ALIVE_MS = 15_000;

@ApiTags('sandbox')
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
    description:
      'Server-sent events, each `data:` a JSON object: `hello` first, `ping` every 15 s, then `event`, `delivery` and `print` as they are stored. Read it with fetch and the signed headers (EventSource cannot send them).',
  })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'the stream; it stays open', schema: { type: 'string' } })
  events(@CurrentMerchant() merchant: MerchantEntity): Observable<MessageEvent> {
    return merge(
      of({ type: 'hello' as const }),
      interval(KEEP_ALIVE_MS).pipe(map(() => ({ type: 'ping' as const }))),
      this.stream.forMerchant(merchant.merchantId),
    ).pipe(map((data) => ({ data })));
  }
}
