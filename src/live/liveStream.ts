/**
 * The console's one connection to the live record events (`GET /dev-api/events`, server/routes/dev-api/
 * events): read with fetch, so the token travels in the `X-Token` header as on every call (the browser's
 * `EventSource` cannot send headers), parsed by ./sse.ts.
 *
 * - `onEvent` gets each record event; `onReady(again)` each time the server says `ready` (`again`: after a
 *   reconnection, when events may have been missed), and `onResync` when the server says `resync`.
 * - A dropped or refused stream (network, server restart, 401 after the session ended) is opened again
 *   after a back-off that doubles from {@link FIRST_RETRY_MS} to {@link MAX_RETRY_MS}, back to the first
 *   once a stream is ready. Nothing is shown to the operator when it drops: no toast, no error log.
 * - {@link LiveConnection.stop} ends it for good (the session's shell unmounts).
 * - {@link LiveConnection.connectedSince}: since when the current stream has been ready, or undefined
 *   while there is none (then the console trusts no cached record to be current).
 */
import { EventStreamParser } from './sse';

/** A record event as the server sends it (server/db/recordEvents.ts `RecordEvent`). */
export interface LiveRecordEvent {
  resource: string;
  id: string | null;
  action: 'create' | 'update' | 'delete' | 'many';
  actor: string;
  clientId: string | null;
}

/** The path of the stream. */
export const EVENTS_PATH = '/dev-api/events';

/** First delay before opening a dropped stream again, ms. */
export const FIRST_RETRY_MS = 1000;
/** Longest delay between two attempts, ms. */
export const MAX_RETRY_MS = 30_000;

/** What the connection tells its owner. */
export interface LiveHandlers {
  onEvent(event: LiveRecordEvent): void;
  onReady(again: boolean): void;
  onResync(): void;
}

/** An open (or reopening) connection. */
export interface LiveConnection {
  stop(): void;
  readonly connectedSince: number | undefined;
}

/**
 * Opens the stream and keeps it open (see the module doc).
 * @param deps.token the session's token (none: wait and try again)
 * @param deps.headers headers sent with it (the tab's `X-Client-Id`)
 * @param deps.fetch the fetch implementation (tests)
 */
export function openLiveConnection(
  handlers: LiveHandlers,
  deps: { token: () => string | undefined; headers?: Record<string, string>; fetch?: typeof fetch },
): LiveConnection {
  const doFetch = deps.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  let stopped = false;
  let abort: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let delay = FIRST_RETRY_MS;
  let readyBefore = false;
  let connectedSince: number | undefined;

  const retry = () => {
    connectedSince = undefined;
    if (stopped) return;
    timer = setTimeout(() => void run(), delay);
    delay = Math.min(delay * 2, MAX_RETRY_MS);
  };

  const run = async () => {
    const token = deps.token();
    if (!token) return retry();
    abort = new AbortController();
    try {
      const res = await doFetch(EVENTS_PATH, {
        headers: { Accept: 'text/event-stream', 'X-Token': token, ...deps.headers },
        signal: abort.signal,
        cache: 'no-store',
      });
      if (!res.ok || !res.body) return retry();
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      const parser = new EventStreamParser();
      for (;;) {
        const { value, done } = await reader.read();
        if (done || stopped) break;
        for (const e of parser.push(value)) {
          if (e.event === 'ready') {
            connectedSince = Date.now();
            delay = FIRST_RETRY_MS;
            handlers.onReady(readyBefore);
            readyBefore = true;
          } else if (e.event === 'resync') handlers.onResync();
          else if (e.event === 'message')
            try {
              handlers.onEvent(JSON.parse(e.data) as LiveRecordEvent);
            } catch {
              // not an event of ours
            }
        }
      }
    } catch {
      // dropped or aborted: said by nothing (see the module doc)
    }
    retry();
  };

  void run();
  return {
    stop: () => {
      stopped = true;
      connectedSince = undefined;
      clearTimeout(timer);
      abort?.abort();
    },
    get connectedSince() {
      return connectedSince;
    },
  };
}
