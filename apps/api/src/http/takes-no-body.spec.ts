import { ContractError } from '@tps/domain';
import { refuseBody } from './takes-no-body';

// Nest ships as ES modules, which Jest does not load; the decorator is not what is checked here.
jest.mock('@nestjs/common', () => ({ UseInterceptors: () => () => undefined }));

function refusal(body: unknown): { code: string; param?: string } | undefined {
  try {
    refuseBody(body);
    return undefined;
  } catch (error) {
    if (!(error instanceof ContractError)) throw error;
    return { code: error.code, param: error.param };
  }
}

describe('refuseBody: a route that takes no body', () => {
  it('takes none, or an empty object', () => {
    expect(refusal(undefined)).toBeUndefined();
    expect(refusal({})).toBeUndefined();
  });

  it('refuses a field as unknown, naming it', () => {
    expect(refusal({ keep_terminals: true })).toEqual({ code: 'PAR-001', param: 'keep_terminals' });
  });

  it('refuses JSON that is not an object', () => {
    for (const body of [[], [1], 'text', 7, true, null]) {
      expect(refusal(body)).toEqual({ code: 'PAR-002', param: 'body' });
    }
  });
});
