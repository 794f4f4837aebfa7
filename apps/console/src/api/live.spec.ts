import { frameData } from './live';

describe('server-sent event frames', () => {
  it('joins the data lines of a frame and ignores comments', () => {
    expect(frameData('data: {"type":"hello"}')).toBe('{"type":"hello"}');
    expect(frameData('id: 1\ndata: {"a":\ndata: 1}')).toBe('{"a":\n1}');
    expect(frameData(': keep-alive')).toBeUndefined();
  });
});
