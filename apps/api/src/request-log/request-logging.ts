import { Logger } from '@nestjs/common';
import type { Request } from 'express';
import type { AnsweredRequest } from '@tps/http';
import type { MerchantEntity } from '../auth/merchant.entity';
import type { RequestLog } from './request-log';
import { requestLogLine } from './request-log-line';

/**
 * What happens once a request is answered: its log line, and, in the sandbox profile, an entry in
 * its merchant's own request log.
 */
export function requestLogging(
  merchantLog: RequestLog | undefined,
): (answered: AnsweredRequest, request: Request) => void {
  const logger = new Logger('Http');
  return (answered, request) => {
    logger.log(requestLogLine(answered, request));
    const merchant = (request as Request & { merchant?: MerchantEntity }).merchant;
    if (merchantLog !== undefined && merchant !== undefined)
      merchantLog.record(merchant.merchantId, answered);
  };
}
