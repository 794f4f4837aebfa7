import { NoticeWait } from './notice-wait';

describe('NoticeWait: how long a reply waits for the service to say it stored it', () => {
  let now = 0;
  const wait = (): NoticeWait => new NoticeWait(300, 5000, () => now);

  beforeEach(() => {
    now = 0;
  });

  it('holds the floor until a notice has been seen', () => {
    expect(wait().holdMs()).toBe(300);
  });

  it('holds twice what notices lately took, once they take more than half the floor', () => {
    const notices = wait();
    notices.replied('m:t1');
    now += 450;
    notices.noticed('m:t1');
    expect(notices.holdMs()).toBe(900);
  });

  it('stays within the ceiling, and comes back down as notices come quicker', () => {
    const notices = wait();
    notices.replied('m:t1');
    now += 10_000;
    notices.noticed('m:t1');
    expect(notices.holdMs()).toBe(5000);
    for (let n = 0; n < 30; n++) {
      notices.replied(`m:q${n}`);
      now += 20;
      notices.noticed(`m:q${n}`);
    }
    expect(notices.holdMs()).toBe(300);
  });

  it('counts a notice only for a reply it saw go, once', () => {
    const notices = wait();
    now += 1000;
    notices.noticed('m:never-replied');
    notices.replied('m:t1');
    now += 200;
    notices.noticed('m:t1');
    now += 5000;
    notices.noticed('m:t1');
    expect(notices.holdMs()).toBe(400);
  });
});
