import { WebSocket } from 'ws';
import {
  CONTROL_PATH,
  DEFAULT_SHARE,
  LINK_EPOCH_HEADER,
  LINK_INSTANCE_HEADER,
  LINK_SERIAL_HEADER,
  LINK_SHARE_HEADER,
  LINK_TOKEN_HEADER,
  LinkPeer,
  SIMULATOR_CONTROL_SIDE,
  type ShareNotice,
} from '@tps/link';
import { LINK_SECRET } from './stack';

/**
 * A test speaking for a simulator: it holds the fleet share over a control link of its own (once
 * the real simulator is gone), so that the service takes uplinks from it. Requests on the control
 * link are answered with nothing.
 */
export class ShareHolder {
  private constructor(
    readonly control: LinkPeer,
    readonly instance: string,
    readonly epoch: number,
  ) {}

  static async link(apiPort: number, instance = 'test-holder', timeoutMs = 5000): Promise<ShareHolder> {
    const socket = new WebSocket(`ws://127.0.0.1:${apiPort}${CONTROL_PATH}`, {
      headers: {
        [LINK_TOKEN_HEADER]: LINK_SECRET,
        [LINK_SHARE_HEADER]: DEFAULT_SHARE,
        [LINK_INSTANCE_HEADER]: instance,
      },
    });
    let granted: (notice: ShareNotice) => void = () => undefined;
    const notice = new Promise<ShareNotice>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the share was not granted in time')), timeoutMs);
      granted = (value) => {
        clearTimeout(timer);
        resolve(value);
      };
      socket.once('close', (code: number, reason: Buffer) => {
        clearTimeout(timer);
        reject(new Error(`control link closed (${code}): ${reason.toString('utf8')}`));
      });
    });
    const control = new LinkPeer(socket, {
      side: SIMULATOR_CONTROL_SIDE,
      onRequest: () => Promise.resolve(undefined),
      onNotice: (notice) => {
        if (notice.type === 'share') granted(notice);
      },
    });
    const { epoch } = await notice;
    return new ShareHolder(control, instance, epoch);
  }

  /** The headers of an uplink for `serial` from this holder. */
  uplinkHeaders(serial: string): Record<string, string> {
    return {
      [LINK_SERIAL_HEADER]: serial,
      [LINK_TOKEN_HEADER]: LINK_SECRET,
      [LINK_SHARE_HEADER]: DEFAULT_SHARE,
      [LINK_INSTANCE_HEADER]: this.instance,
      [LINK_EPOCH_HEADER]: String(this.epoch),
    };
  }

  close(): void {
    this.control.close();
  }
}
