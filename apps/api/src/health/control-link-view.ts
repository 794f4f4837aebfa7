import { ApiProperty } from '@nestjs/swagger';
import type { ShareStatus } from '../link/share-registry';

/** The fleet share's control link as /health and /ready show it (docs/contract.md §14). */
export interface ControlLinkView {
  share: string;
  holder: { instance: string; epoch: number; since: string } | null;
  links_last_minute: number;
  flapping: boolean;
  refused_last_minute: number;
  refused: Array<{ instance: string; at: string }>;
}

/**
 * The share whose control link /health and /ready show when the fleet is split: one a simulator
 * was refused for or that flaps, else one with no holder, else the first (docs/contract.md §14).
 */
export function shareToShow(statuses: ShareStatus[]): ShareStatus {
  return (
    statuses.find((status) => status.refusedInWindow > 0 || status.flapping) ??
    statuses.find((status) => status.holder === null) ??
    statuses[0]
  );
}

export function controlLinkView(status: ShareStatus): ControlLinkView {
  const { holder } = status;
  return {
    share: status.share,
    holder:
      holder === null
        ? null
        : { instance: holder.instance, epoch: holder.epoch, since: new Date(holder.since).toISOString() },
    links_last_minute: status.linksInWindow,
    flapping: status.flapping,
    refused_last_minute: status.refusedInWindow,
    refused: status.refused.map((refusal) => ({
      instance: refusal.instance,
      at: new Date(refusal.at).toISOString(),
    })),
  };
}

class ShareHolderDoc {
  @ApiProperty({ example: '3f9a1c2b7d4e' }) instance!: string;
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: 'grows each time another instance takes the share',
  })
  epoch!: number;
  @ApiProperty({ format: 'date-time' }) since!: string;
}

class RefusedLinkDoc {
  @ApiProperty({ example: '8b0e5d6a1f23' }) instance!: string;
  @ApiProperty({ format: 'date-time' }) at!: string;
}

export class ControlLinkDoc {
  @ApiProperty({ example: 'fleet' }) share!: string;
  @ApiProperty({
    type: ShareHolderDoc,
    nullable: true,
    description: 'the simulator instance holding the share',
  })
  holder!: ShareHolderDoc | null;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'control links granted in the last minute' })
  links_last_minute!: number;
  @ApiProperty({ description: 'five or more links granted in the last minute' })
  flapping!: boolean;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      'control links refused in the last minute: another simulator linked for a share already held',
  })
  refused_last_minute!: number;
  @ApiProperty({ type: [RefusedLinkDoc], description: 'the latest refused attempts (at most five)' })
  refused!: RefusedLinkDoc[];
}
