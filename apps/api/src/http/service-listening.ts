import { Injectable } from '@nestjs/common';

/** Settled once the service's HTTP server takes connections: main.ts says so right after listening. */
@Injectable()
export class ServiceListening {
  private markListening: () => void = () => undefined;
  readonly listening = new Promise<void>((resolve) => (this.markListening = resolve));

  listened(): void {
    this.markListening();
  }
}
