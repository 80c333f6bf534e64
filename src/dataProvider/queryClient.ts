/**
 * The console's react-query client (passed to react-admin's `<Admin queryClient>`). Its one rule beside
 * react-admin's defaults: a refusal (HTTP 4xx: token expired or revoked, role refused, invalid input,
 * not found) is never retried, so the first answer decides at once (a revoked token reaches the
 * authProvider's `checkError` within one round trip instead of after react-query's three retries with
 * back-off, about 7 s); network failures and 5xx are retried up to 3 times as by default.
 */
import { QueryClient } from '@tanstack/react-query';

/** Whether react-query retries after `failureCount` failures, the last being `error`. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) return false;
  return failureCount < 3;
}

/** A new client with the rule above for queries and mutations (mutations are never retried, as by default). */
export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: shouldRetry } } });
}
