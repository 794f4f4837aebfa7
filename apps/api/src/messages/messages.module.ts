import { Global, Logger, Module } from '@nestjs/common';
import { InProcessMessagePort } from '@tps/messaging';
import { API_MESSAGES, type ApiTopics } from './api-messages';

/**
 * The message port between the write paths and whoever watches (the console's live stream, the
 * payment outcome log, the webhook dispatcher, the metrics), in every profile; within this
 * process for now.
 */
@Global()
@Module({
  providers: [
    {
      provide: API_MESSAGES,
      useFactory: () => {
        const logger = new Logger('Messages');
        return new InProcessMessagePort<ApiTopics>((topic, error) =>
          logger.error(`a subscriber of ${topic} failed: ${String(error)}`),
        );
      },
    },
  ],
  exports: [API_MESSAGES],
})
export class MessagesModule {}
