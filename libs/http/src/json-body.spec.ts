import { announcesBody, isJsonMediaType } from './json-body';

describe('which requests carry a body', () => {
  it.each([
    [{ 'content-length': '12' }, true],
    [{ 'transfer-encoding': 'chunked' }, true],
    [{ 'content-length': '0' }, false],
    [{}, false],
  ])('headers %p announce a body: %p', (headers, expected) => {
    expect(announcesBody(headers)).toBe(expected);
  });
});

describe('which content types are JSON', () => {
  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON ;charset=UTF-8'])(
    'takes %p',
    (type) => {
      expect(isJsonMediaType(type)).toBe(true);
    },
  );

  it.each([
    undefined,
    '',
    'text/plain',
    'text/plain;charset=UTF-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/vnd.api+json',
    'application/jsonx',
  ])('refuses %p', (type) => {
    expect(isJsonMediaType(type)).toBe(false);
  });
});
