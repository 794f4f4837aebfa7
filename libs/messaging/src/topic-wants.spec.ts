import { TopicWants } from './topic-wants';

describe('TopicWants', () => {
  let now = 0;
  const wants = (): TopicWants => new TopicWants(6_000, () => now);

  beforeEach(() => {
    now = 1_000;
  });

  it('wants a topic while some process said so lately, and not once each said otherwise', () => {
    const book = wants();
    expect(book.wanted('thing.stored')).toBe(false);
    book.heard('a', ['thing.stored']);
    book.heard('b', ['thing.stored', 'other']);
    expect(book.wanted('thing.stored')).toBe(true);
    book.heard('a', []);
    expect(book.wanted('thing.stored')).toBe(true);
    book.heard('b', ['other']);
    expect(book.wanted('thing.stored')).toBe(false);
    expect(book.wanted('other')).toBe(true);
  });

  it('forgets the word of a process that stopped saying it (a process that died)', () => {
    const book = wants();
    book.heard('a', ['thing.stored']);
    now += 5_999;
    expect(book.wanted('thing.stored')).toBe(true);
    book.heard('a', ['thing.stored']);
    now += 5_999;
    expect(book.wanted('thing.stored')).toBe(true);
    now += 1;
    expect(book.wanted('thing.stored')).toBe(false);
  });
});
