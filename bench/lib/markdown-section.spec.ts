import { sectionOf, withSectionTitled } from './markdown-section';

const DOCUMENT = '# Benchmarks\n\n## A\n\na\n\n### A.1\n\na1\n\n## Where the time goes\n\nw\n';

describe('BENCHMARKS.md sections', () => {
  it('reads a section to the next of its level, its subsections included', () => {
    expect(sectionOf(DOCUMENT, '## A')).toBe('## A\n\na\n\n### A.1\n\na1\n\n');
    expect(sectionOf(DOCUMENT, '## B')).toBeUndefined();
  });

  it('replaces a section where it is, and puts a new one before "Where the time goes"', () => {
    expect(withSectionTitled(DOCUMENT, '## A', '## A\n\nnew\n')).toBe(
      '# Benchmarks\n\n## A\n\nnew\n## Where the time goes\n\nw\n',
    );
    expect(withSectionTitled(DOCUMENT, '## B', '## B\n\nb\n')).toBe(
      '# Benchmarks\n\n## A\n\na\n\n### A.1\n\na1\n\n## B\n\nb\n\n## Where the time goes\n\nw\n',
    );
  });
});
