/**
 * The console's react-query client (passed to react-admin's `<Admin queryClient>`). Two rules beside
 * react-admin's defaults:
 * - A refusal (HTTP 4xx: token expired or revoked, role refused, invalid input, not found) is never
 *   retried, so the first answer decides at once (a revoked token reaches the authProvider's `checkError`
 *   within one round trip instead of after react-query's three retries with back-off, about 7 s); network
 *   failures and 5xx are retried up to 3 times as by default.
 * - An auth query (`['auth', ...]`) left without observers while it had no answer yet is dropped from the
 *   cache. react-admin's CRUD views (ra-core `EditBase`, `ShowBase`, ... through `useIsAuthPending`) read
 *   the state of `['auth', 'canAccess', {action, resource}]` without subscribing to it, and show their
 *   loading page while it is `pending`. That key is also the one a button makes before its record has
 *   loaded (`useCanAccess` with no record, e.g. the show page's Edit button). Its query function takes
 *   react-query's AbortSignal, so when the button unmounts mid-request (the user navigated to the edit page)
 *   react-query cancels the request and reverts the query to `pending`, idle, with no observer left to
 *   fetch it again: the next page then showed "Loading" until the cache dropped it five minutes later
 *   (seen in the browser tests on a loaded machine). Dropped, the key reads as not pending, and the view's
 *   own access check (`useRequireAccess`, subscribed) still decides what it shows.
 */
import { QueryCache, QueryClient, type Query } from '@tanstack/react-query';

/** Whether react-query retries after `failureCount` failures, the last being `error`. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) return false;
  return failureCount < 3;
}

/** An auth query nobody waits for any more that never got an answer (see the module comment). */
function isAbandonedAuthQuery(query: Query): boolean {
  return (
    query.queryKey[0] === 'auth' &&
    query.state.status === 'pending' &&
    query.state.fetchStatus === 'idle' &&
    query.state.data === undefined &&
    query.getObserversCount() === 0
  );
}

/** A new client with the rules above (mutations are never retried, as by default). */
export function createQueryClient(): QueryClient {
  const queryCache = new QueryCache();
  queryCache.subscribe((event) => {
    // `observerRemoved` comes after the cancellation's revert (query-core Query.removeObserver);
    // `updated` with `setState` is the revert itself.
    if (event.type !== 'observerRemoved' && !(event.type === 'updated' && event.action.type === 'setState'))
      return;
    if (isAbandonedAuthQuery(event.query)) queryCache.remove(event.query);
  });
  return new QueryClient({ queryCache, defaultOptions: { queries: { retry: shouldRetry } } });
}
