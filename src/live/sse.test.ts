import { describe, expect, it } from 'vitest';
import { EventStreamParser } from './sse';
import { isKeptEditQuery } from './liveUpdates';

describe('EventStreamParser (text/event-stream, WHATWG HTML §9.2.6)', () => {
  it('dispatches events at blank lines, with their type; skips comments, id and retry', () => {
    const p = new EventStreamParser();
    expect(p.push('retry: 3000\n\n: heartbeat\n\nevent: ready\ndata: {}\n\n')).toEqual([
      { event: 'ready', data: '{}' },
    ]);
    expect(p.push('id: 7\ndata: {"a":1}\n\n')).toEqual([{ event: 'message', data: '{"a":1}' }]);
  });

  it('joins data lines, takes CRLF and CR, and waits for an event split over chunks', () => {
    const p = new EventStreamParser();
    expect(p.push('data: one\r\ndata:two\r')).toEqual([]);
    expect(p.push('\n\r\nda')).toEqual([{ event: 'message', data: 'one\ntwo' }]);
    // A CR at the end of a chunk may be half of a CRLF: the event waits for what follows.
    expect(p.push('ta: x\r\r')).toEqual([]);
    expect(p.push('\n')).toEqual([{ event: 'message', data: 'x' }]);
  });
});

describe('isKeptEditQuery', () => {
  it("is an edit page's record query only: getOne with the live meta", () => {
    expect(isKeptEditQuery({ queryKey: ['authors', 'getOne', { id: '1', meta: { keptEdit: true } }] })).toBe(
      true,
    );
    expect(isKeptEditQuery({ queryKey: ['authors', 'getOne', { id: '1' }] })).toBe(false);
    expect(isKeptEditQuery({ queryKey: ['authors', 'getList', {}] })).toBe(false);
  });
});
