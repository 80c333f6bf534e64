/**
 * The console's react-query client (passed to react-admin's `<Admin queryClient>`). Two rules beside
 * react-admin's defaults:
 * - A refusal (HTTP 4xx: token expired or revoked, role refused, invalid input, not found) is never
 *   retried, so the first answer decides at once (a revoked token reaches the authProvider's `checkError`
 *   within one round trip instead of after react-query's three retries with back-off, about 7 s); network
 *   failures and 5xx are retried up to 3 times as by default.
 * - An auth query (`['auth', ...]`) that nobody observes and that never got an answer reads as absent
 *   ({@link ConsoleQueryClient.getQueryState}). react-admin's CRUD views (ra-core `EditBase`, `ShowBase`,
 *   ... through `useIsAuthPending`) read the state of `['auth', 'canAccess', {action, resource}]` without
 *   subscribing to it, and show their loading page while it is `pending`. That key is also the one a
 *   component makes before its record has loaded (`useCanAccess` with no record, e.g. a show page's Edit
 *   button). When that component renders without committing (a suspended render), or unmounts mid-request
 *   (react-query then cancels the request, which takes an AbortSignal, and reverts the query), the query
 *   stays `pending`, idle, with no observer left to fetch it, until the cache drops it five minutes later:
 *   the next page showed "Loading" that long (seen in the browser tests on a loaded machine, with the
 *   cache dumped: `{action:"show",resource:"artworks"}` pending, idle, 0 observers). Read as absent, it is
 *   not pending, and the view's own access check (`useRequireAccess`, subscribed, which gates the record's
 *   fetch) still decides what the page shows.
 */
import {
  QueryClient,
  type DefaultError,
  type Query,
  type QueryKey,
  type QueryState,
} from '@tanstack/react-query';

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

/** The console's client: react-query's, with the reading of abandoned auth queries above. */
export class ConsoleQueryClient extends QueryClient {
  override getQueryState<TQueryFnData = unknown, TError = DefaultError>(
    queryKey: QueryKey,
  ): QueryState<TQueryFnData, TError> | undefined {
    const query = this.getQueryCache().find({ queryKey, exact: true });
    if (query && isAbandonedAuthQuery(query)) return undefined;
    return super.getQueryState<TQueryFnData, TError>(queryKey);
  }
}

/** A new client with the rules above (mutations are never retried, as by default). */
export function createQueryClient(): QueryClient {
  return new ConsoleQueryClient({ defaultOptions: { queries: { retry: shouldRetry } } });
}
