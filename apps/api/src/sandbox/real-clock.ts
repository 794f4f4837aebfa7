import { Injectable } from '@nestjs/common';

/** Real time, as a provider so that a test can put its own clock in its place. */
@Injectable()
export class RealClock {
  nowMs(): number {
    return Date.now();
  }
}
