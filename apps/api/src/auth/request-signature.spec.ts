import { ContractError } from '@tps/domain';
import { checkTimestamp, parseAuthorization, signatureMatches } from './request-signature';

const SIGNATURE =
  '75fd12c37c9dab4d90ac2f0563fbd9e1587e6544b9d762d027f07df1662f60ec2dea79162b57ecb1403a5ca260b5ee3173555e12b6b8a0f25e13de9275f60fed';
const BODY = Buffer.from(
  '{"amount":{"iva":1600,"subtotal_iva":10000,"subtotal_iva0":0},"client_transaction_id":"6f1c2b4e-8d1a-4c3e-9b7a-2f5d6e7a8b9c"}',
);
const PATH = '/terminal/v1/SIM0000002/async/charge';

function codeOf(thunk: () => unknown): string | undefined {
  try {
    thunk();
    return undefined;
  } catch (error) {
    return error instanceof ContractError ? error.code : 'not a contract error';
  }
}

describe('request signature checks', () => {
  it('accepts the contract test vector and nothing slightly different', () => {
    expect(signatureMatches('demo-secret-key', SIGNATURE, '1795334400', 'POST', PATH, BODY)).toBe(true);
    expect(signatureMatches('other-secret-key', SIGNATURE, '1795334400', 'POST', PATH, BODY)).toBe(false);
    expect(
      signatureMatches('demo-secret-key', SIGNATURE.toUpperCase(), '1795334400', 'POST', PATH, BODY),
    ).toBe(false);
    expect(signatureMatches('demo-secret-key', SIGNATURE.slice(1), '1795334400', 'POST', PATH, BODY)).toBe(
      false,
    );
    expect(signatureMatches('demo-secret-key', '', '1795334400', 'POST', PATH, BODY)).toBe(false);
  });

  it('reads merchant and signature from a Basic header', () => {
    const header = `Basic ${Buffer.from(`demo-merchant:${SIGNATURE}`).toString('base64')}`;
    expect(parseAuthorization(header)).toEqual({ merchantId: 'demo-merchant', signature: SIGNATURE });
  });

  it.each(['basic', 'BASIC', 'bAsIc'])('takes the scheme name %p in any case', (scheme) => {
    const token = Buffer.from(`demo-merchant:${SIGNATURE}`).toString('base64');
    expect(parseAuthorization(`${scheme} ${token}`)).toEqual({
      merchantId: 'demo-merchant',
      signature: SIGNATURE,
    });
    expect(parseAuthorization(`${scheme}  ${token}`)).toEqual({
      merchantId: 'demo-merchant',
      signature: SIGNATURE,
    });
  });

  it.each([
    [undefined],
    ['Basicx ZGVtbzpzaWc='],
    ['Basic\tZGVtbzpzaWc='],
    [''],
    ['Bearer abc'],
    ['Basic'],
    ['Basic !!!'],
    [`Basic ${Buffer.from('no-colon').toString('base64')}`],
    [`Basic ${Buffer.from(':sig').toString('base64')}`],
    [`Basic ${Buffer.from('merchant:').toString('base64')}`],
  ])('refuses the Authorization header %p with AUTH-001', (header) => {
    expect(codeOf(() => parseAuthorization(header))).toBe('AUTH-001');
  });

  it.each([
    ['missing', undefined],
    ['not a number', 'yesterday'],
    ['in milliseconds', '1795334400000'],
    ['negative', '-1795334400'],
    ['decimal', '1795334400.5'],
    ['stale by 301 s', String(1795334400 - 301)],
    ['ahead by 301 s', String(1795334400 + 301)],
  ])('refuses a timestamp %s with AUTH-002', (_case, header) => {
    expect(codeOf(() => checkTimestamp(header, 1795334400))).toBe('AUTH-002');
  });

  it('accepts a timestamp up to 300 s either side', () => {
    expect(checkTimestamp(String(1795334400 - 300), 1795334400)).toBe(String(1795334400 - 300));
    expect(checkTimestamp(String(1795334400 + 300), 1795334400)).toBe(String(1795334400 + 300));
  });
});
