import { parseInvocation } from './arguments';
import { differences, syncOutcome, acknowledgementOutcome } from './outcome';
import { chargeBody, scenarioList, scenarioNamed, SCENARIOS } from './scenarios';

function total(body: Record<string, unknown>): number {
  const amount = body.amount as Record<string, number>;
  return amount.iva + amount.subtotal_iva + amount.subtotal_iva0;
}

describe('trigger scenario table (contract §10, §11)', () => {
  it('names every ending of §10 and every sandbox control, each once', () => {
    const names = SCENARIOS.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    const endings = new Set(SCENARIOS.map((s) => s.ending));
    for (const ending of [
      '00',
      '05',
      '51',
      '54',
      '55',
      '61',
      '07',
      '08',
      '09',
      '91',
      '92',
      '93',
      '94',
      '95',
      '96',
      '97',
    ]) {
      expect(endings).toContain(ending);
    }
    expect(names).toEqual(
      expect.arrayContaining(['approve', 'decline-51', 'cancel', 'timeout', 'reject-card', 'offline']),
    );
    expect(SCENARIOS.filter((s) => s.control?.kind === 'card').map((s) => s.name)).toEqual([
      'present-card',
      'cardholder-cancel',
    ]);
  });

  it('builds a charge whose total ends in the scenario digits', () => {
    for (const scenario of SCENARIOS) {
      const body = chargeBody(scenario, '6f1c1f55-8f0e-4c4e-9a57-0d4ab8a1f0a1');
      expect(String(total(body)).slice(-2)).toBe(scenario.ending);
      expect(body.client_transaction_id).toBe('6f1c1f55-8f0e-4c4e-9a57-0d4ab8a1f0a1');
    }
  });

  it('lists one line per scenario', () => {
    const lines = scenarioList().trimEnd().split('\n');
    expect(lines).toHaveLength(SCENARIOS.length);
    expect(lines.find((line) => line.startsWith('decline-51 '))).toContain('code 51');
  });
});

describe('trigger command line', () => {
  it('reads a scenario with its options', () => {
    expect(parseInvocation(['decline-51', '--terminal', 'SIM0000002', '--async'])).toEqual({
      kind: 'run',
      scenario: scenarioNamed('decline-51'),
      terminal: 'SIM0000002',
      async: true,
    });
    expect(parseInvocation(['approve', '--sandbox', 'http://127.0.0.1:4000'])).toEqual({
      kind: 'run',
      scenario: scenarioNamed('approve'),
      async: false,
      sandbox: 'http://127.0.0.1:4000',
    });
    expect(parseInvocation(['--list'])).toEqual({ kind: 'list' });
    expect(parseInvocation(['decline-51', '--async', '--webhook-url', 'http://localhost:4000/hook'])).toEqual(
      {
        kind: 'run',
        scenario: scenarioNamed('decline-51'),
        async: true,
        webhookUrl: 'http://localhost:4000/hook',
      },
    );
  });

  it.each([
    [[], 'name one scenario'],
    [['approve', 'decline-51'], 'name one scenario'],
    [['no-such'], 'unknown scenario "no-such"'],
    [['approve', '--terminal', 'a b'], 'not a terminal serial'],
    [['approve', '--colour'], "Unknown option '--colour'"],
    [['--list', 'approve'], '--list takes no scenario'],
    [['approve', '--webhook-url', 'http://localhost:4000/hook'], '--webhook-url goes with --async'],
  ])('refuses %j', (argv, problem) => {
    const invocation = parseInvocation(argv);
    expect(invocation.kind).toBe('usage');
    expect(invocation.kind === 'usage' && invocation.problem).toContain(problem);
  });
});

describe('trigger verdict', () => {
  const expectedOf = (name: string) => scenarioNamed(name)!.expected;

  it('reads sync answers: approved, declined, terminal rejection, cancel, not taken', () => {
    expect(syncOutcome(200, { approved: true, responseCode: '00' })).toEqual({
      status: 'APPROVAL',
      code: '00',
    });
    expect(syncOutcome(200, { approved: false, responseCode: '51' })).toEqual({
      status: 'DECLINED',
      code: '51',
    });
    expect(syncOutcome(409, { type: 'TERMINAL', code: 'TER-101' })).toEqual({
      status: 'TERMINAL_REJECTED',
      code: 'TER-101',
    });
    expect(syncOutcome(409, { type: 'TERMINAL', code: 'TER-104' })).toEqual({
      status: 'TERMINAL_CANCELED',
      code: 'TER-104',
    });
    expect(syncOutcome(503, { type: 'TERMINAL', code: 'TER-001' })).toEqual({
      status: 'NOT_TAKEN',
      code: 'TER-001',
    });
    expect(syncOutcome(400, { type: 'PARAMETER', code: 'PAR-002' })).toEqual({ status: 'HTTP 400 PAR-002' });
    expect(syncOutcome(502, 'Bad Gateway')).toEqual({ status: 'HTTP 502' });
  });

  it('reads an async acknowledgement: taken, or why not', () => {
    expect(acknowledgementOutcome(200, { status: 'TERMINAL_ACKNOWLEDGED' })).toBeNull();
    expect(acknowledgementOutcome(503, { code: 'TER-001' })).toEqual({
      status: 'NOT_TAKEN',
      code: 'TER-001',
    });
  });

  it('passes a run that behaved as named', () => {
    expect(
      differences(expectedOf('approve'), {
        status: 'APPROVAL',
        code: '00',
        readingType: 'CHIP',
        cardType: 'CREDIT',
      }),
    ).toEqual([]);
    expect(differences(expectedOf('offline'), { status: 'NOT_TAKEN', code: 'TER-001' })).toEqual([]);
  });

  it('fails a run that did not, saying how', () => {
    expect(
      differences(expectedOf('approve'), {
        status: 'DECLINED',
        code: '51',
        readingType: 'CHIP',
        cardType: 'CREDIT',
      }),
    ).toEqual(['status: expected APPROVAL, got DECLINED', 'code: expected 00, got 51']);
    expect(
      differences(expectedOf('decline-51'), { status: 'DECLINED', code: '05', cardPresentations: 1 }),
    ).toEqual(['code: expected 51, got 05']);
    expect(
      differences(expectedOf('reject-card'), {
        status: 'APPROVAL',
        code: '00',
        readingType: 'CONTACTLESS',
        cardPresentations: 1,
      }),
    ).toEqual(['card presentations: expected 2, got 1']);
  });

  it('skips the code only where the source has none (async search), never the rest', () => {
    expect(differences(expectedOf('decline-51'), { status: 'DECLINED', cardPresentations: 1 })).toEqual([]);
    expect(differences(expectedOf('swipe'), { status: 'APPROVAL' })).toEqual([
      'reading type: expected MAGNETIC_STRIPE, got nothing',
    ]);
  });
});
