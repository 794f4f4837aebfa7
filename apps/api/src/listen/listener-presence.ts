import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Unsubscribe } from '@tps/messaging';
import { API_MESSAGES, type ApiMessages } from '../messages/api-messages';
import { PresenceBook } from './presence-book';

/**
 * Which merchants have a `listen` connection open, in any process, as the message port tells it:
 * each gets a copy of every webhook attempt of its merchant (contract §6.1).
 */
@Injectable()
export class ListenerPresence implements OnModuleDestroy {
  private readonly book = new PresenceBook();
  private readonly unsubscribe: Unsubscribe;

  constructor(@Inject(API_MESSAGES) messages: ApiMessages) {
    this.unsubscribe = messages.subscribe(
      'listen.presence',
      (message) => this.book.heard(message, Date.now()),
      'cluster',
    );
  }

  isListening(merchantId: string): boolean {
    return this.book.isListening(merchantId, Date.now());
  }

  listenersOf(merchantId: string): string[] {
    return this.book.listenersOf(merchantId, Date.now());
  }

  onModuleDestroy(): void {
    this.unsubscribe();
  }
}
