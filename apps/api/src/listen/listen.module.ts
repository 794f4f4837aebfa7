import { Module } from '@nestjs/common';
import { ListenServer } from './listen-server';

/** The sandbox's end of `listen` (contract §6.1); the dispatcher's end is in WebhooksModule. */
@Module({ providers: [ListenServer] })
export class ListenModule {}
