/**
 * A reader of the `text/event-stream` format (WHATWG HTML, "Server-sent events", §9.2.6 "Interpreting an
 * event stream"), for a stream read with fetch: the console's live updates send the token in the
 * `X-Token` header, which the browser's `EventSource` cannot send. Handles the fields `event` and `data`
 * (several `data` lines joined with "\n"), ignores comments (lines starting with `:`, the heartbeats),
 * `id` and `retry`; lines end with LF, CRLF or CR.
 */

/** One dispatched event: its type (`message` when the stream names none) and data. */
export interface StreamEvent {
  event: string;
  data: string;
}

/** Parses a stream given in chunks of text; `push` returns the events completed by each chunk. */
export class EventStreamParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];

  /** Feeds `chunk`; returns the events whose blank line it contained. */
  push(chunk: string): StreamEvent[] {
    this.buffer += chunk;
    const out: StreamEvent[] = [];
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buffer);
      // A lone CR at the end may be the first half of CRLF: wait for the next chunk.
      if (!m || (m[0] === '\r' && m.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      if (line === '') {
        if (this.data.length) out.push({ event: this.event || 'message', data: this.data.join('\n') });
        this.event = '';
        this.data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') this.event = value;
      else if (field === 'data') this.data.push(value);
    }
    return out;
  }
}
