import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import type { PeriodicTask } from '@tps/background';
import { BackgroundTasks } from '../metrics/background-tasks';
import { API_MESSAGES, type ApiMessages } from '../messages/api-messages';
import { ReplicaRouting } from '../routing/replica-routing';
import { RoutedRequestWorker } from '../routing/routed-request-worker';
import { TerminalLinks } from './terminal-links';

/** Requests handed to this replica whose word was lost are found by a poll this often. */
const POLL_MS = 500;

/** Takes the requests other replicas hand to this one, for the links it holds. */
@Injectable()
export class RoutedRequestDesk implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Routing');
  private poll: PeriodicTask | undefined;
  private readonly stops: Array<() => void> = [];
  private worker: RoutedRequestWorker | undefined;

  constructor(
    private readonly replicaRouting: ReplicaRouting,
    private readonly links: TerminalLinks,
    @Inject(API_MESSAGES) private readonly messages: ApiMessages,
    private readonly tasks: BackgroundTasks,
  ) {}

  onApplicationBootstrap(): void {
    const cluster = this.replicaRouting.cluster;
    if (cluster === undefined) return;
    const worker = (this.worker = new RoutedRequestWorker(
      cluster.store,
      (link, serial, request, timeoutMs) => this.links.sendRouted(link, serial, request, timeoutMs),
      (error) => this.logger.warn(`a routed request: ${String(error)}`),
    ));
    this.stops.push(
      this.messages.subscribe(
        'route.handed',
        ({ replica, id }) => {
          if (replica === cluster.replica.id) worker.take(id);
        },
        'cluster',
      ),
      this.messages.subscribe(
        'route.notice',
        ({ serial, notice }) => this.links.noticeHere(serial, notice),
        'cluster',
      ),
      this.messages.onGap(() => worker.take(undefined)),
    );
    this.poll = this.tasks
      .every({ name: 'routed-request-poll', everyMs: POLL_MS, run: () => worker.take(undefined) })
      .start();
  }

  /** Requests other replicas handed to this one, being taken or not yet answered. */
  get requestsInFlight(): number {
    return this.worker?.inFlight ?? 0;
  }

  async onModuleDestroy(): Promise<void> {
    await this.poll?.stop();
    this.stops.forEach((stop) => stop());
  }
}
