import type { OnApplicationShutdown } from '@nestjs/common';
import { Tracing } from './tracing';

/** A Nest provider that sends the spans still buffered when the app stops. */
export class TracingShutdown implements OnApplicationShutdown {
  onApplicationShutdown(): Promise<void> {
    return Tracing.get().shutdown();
  }
}
