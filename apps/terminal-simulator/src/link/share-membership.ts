import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { SimulatorConfig } from '../config/simulator-config';

export type ShareState = 'connecting' | 'holder' | 'refused';

/** What an uplink presents to the service: the share this process holds, as which instance, under which epoch. */
export interface ShareCredentials {
  share: string;
  instance: string;
  epoch: number;
  /** The replica that granted the share: every uplink of this process links there too. */
  apiUrl: string;
}

/**
 * This process's place in its fleet share (docs/contract.md, "Links between the apps"): its
 * instance id, new at each start, and whether the service let it hold the share. Until it does,
 * no terminal of this process opens an uplink, so a second process cannot take over the fleet.
 */
@Injectable()
export class ShareMembership {
  readonly share: string;
  readonly instance = randomBytes(6).toString('hex');
  private held: { epoch: number; apiUrl: string } | undefined;
  private current: ShareState = 'connecting';
  private refusal: string | undefined;

  constructor(config: SimulatorConfig) {
    this.share = config.FLEET_SHARE;
  }

  get state(): ShareState {
    return this.current;
  }

  get epoch(): number | undefined {
    return this.held?.epoch;
  }

  get refusedReason(): string | undefined {
    return this.refusal;
  }

  /** The credentials for an uplink, while this process holds its share. */
  credentials(): ShareCredentials | undefined {
    return this.held === undefined ? undefined : { share: this.share, instance: this.instance, ...this.held };
  }

  granted(epoch: number, apiUrl: string): void {
    this.held = { epoch, apiUrl };
    this.current = 'holder';
    this.refusal = undefined;
  }

  refused(reason: string): void {
    this.held = undefined;
    this.current = 'refused';
    this.refusal = reason;
  }

  /** The control link dropped: the share is to be claimed again before new uplinks open. */
  lost(): void {
    this.held = undefined;
    if (this.current === 'holder') this.current = 'connecting';
  }
}
