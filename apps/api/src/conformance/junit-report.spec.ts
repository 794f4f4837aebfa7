import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { junitReport } from './junit-report';

describe('junitReport', () => {
  it('escapes what a receiver answered, so the XML stays well formed and reads back as sent', () => {
    const xml = junitReport({
      id: 'run-1',
      url: 'http://127.0.0.1:4000/hook?a=1&b=<2>',
      state: 'finished',
      started_at: '2026-11-22T08:00:00.123Z',
      finished_at: '2026-11-22T08:00:01.123Z',
      score: { passed: 1, failed: 1, skipped: 0, total: 2 },
      cases: [
        { name: 'fast-ack', rule: 'r', expected: 'e', observed: 'ok', passed: true, hint: 'h' },
        {
          name: 'bad-signature',
          rule: 'r',
          expected: 'e',
          observed: 'answered "<html>" & \u0001 more',
          passed: false,
          hint: "don't",
        },
      ],
    });
    expect(XMLValidator.validate(xml)).toBe(true);
    const suite = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml).testsuites
      .testsuite;
    expect(suite.name).toBe('webhook receiver conformance: http://127.0.0.1:4000/hook?a=1&b=<2>');
    expect(suite.testcase[1].failure.message).toBe('answered "<html>" &  more');
  });
});
