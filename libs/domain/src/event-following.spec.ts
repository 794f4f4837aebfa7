import { followingStatus } from './event-following';
import { eventOf, recordOf } from './testing/transaction-records';

describe('followingStatus: does an event follow its stored transaction', () => {
  it('follows the state the transaction is at, to the status the event names', () => {
    expect(followingStatus(recordOf(), eventOf(recordOf(), '', 'TERMINAL_ACKNOWLEDGED'))).toBe(
      'TERMINAL_ACKNOWLEDGED',
    );
    const acknowledged = recordOf({ status: 'TERMINAL_ACKNOWLEDGED' });
    expect(
      followingStatus(acknowledged, eventOf(acknowledged, 'TERMINAL_ACKNOWLEDGED', 'CARD_PRESENTED')),
    ).toBe('CARD_PRESENTED');
  });

  it('refuses an event that follows another state than the stored one', () => {
    const record = recordOf({ status: 'CARD_PRESENTED', clientTransactionId: 'tx-9' });
    const refused = followingStatus(
      record,
      eventOf(record, 'TERMINAL_ACKNOWLEDGED', 'CARD_PRESENTED', 'e-1'),
    );
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toBe(
      'event e-1 follows TERMINAL_ACKNOWLEDGED but tx-9 is at CARD_PRESENTED',
    );
  });

  it('refuses a step the lifecycle does not allow, even from the stored state', () => {
    const record = recordOf({ status: 'TERMINAL_ACKNOWLEDGED' });
    expect(followingStatus(record, eventOf(record, 'TERMINAL_ACKNOWLEDGED', 'APPROVAL'))).toBeInstanceOf(
      Error,
    );
    const ended = recordOf({ status: 'APPROVAL' });
    expect(followingStatus(ended, eventOf(ended, 'APPROVAL', 'CARD_PRESENTED'))).toBeInstanceOf(Error);
  });
});
