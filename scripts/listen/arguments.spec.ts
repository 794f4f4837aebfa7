import { parseInvocation } from './arguments';

describe('listen arguments', () => {
  it('takes the local URL and the sandbox', () => {
    expect(parseInvocation(['--forward-to', 'http://localhost:4000/hook', '--sandbox', 'http://s'])).toEqual({
      kind: 'run',
      forwardTo: 'http://localhost:4000/hook',
      sandbox: 'http://s',
    });
  });

  it.each([
    [[], 'name the local URL with --forward-to'],
    [['--forward-to', 'localhost:4000'], 'is not an http or https URL'],
    [['--forward-to', '/hook'], 'is not an absolute URL'],
    [['--forward-to', 'http://x', '--nope'], "Unknown option '--nope'"],
  ])('refuses %j', (argv, problem) => {
    const invocation = parseInvocation(argv);
    expect(invocation.kind).toBe('usage');
    expect(invocation.kind === 'usage' && invocation.problem).toContain(problem);
  });
});
