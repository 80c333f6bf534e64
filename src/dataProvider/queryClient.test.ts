import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { createQueryClient, shouldRetry } from './queryClient';

/** What ra-core's useCanAccess does for a button whose record has not loaded: a signal-taking query. */
const canAccessKey = ['auth', 'canAccess', { action: 'edit', resource: 'artworks' }];
const slowAnswer = ({ signal }: { signal: AbortSignal }) =>
  new Promise<boolean>((resolve, reject) => {
    const timer = setTimeout(() => resolve(true), 200);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    });
  });
const flush = () => new Promise((r) => setTimeout(r, 20));

/** Mounts an observer of the key, lets its request start, then unmounts it (the user navigated away). */
async function abandon(client: QueryClient) {
  const observer = new QueryObserver(client, { queryKey: canAccessKey, queryFn: slowAnswer });
  const unsubscribe = observer.subscribe(() => undefined);
  await flush();
  expect(client.getQueryState(canAccessKey)?.fetchStatus).toBe('fetching');
  unsubscribe();
  await flush();
}

describe('createQueryClient', () => {
  it('drops an auth query abandoned mid-request, which ra-core would read as pending forever', async () => {
    // react-query alone: cancelled and reverted to pending, with nobody left to fetch it.
    const plain = new QueryClient();
    await abandon(plain);
    expect(plain.getQueryState(canAccessKey)).toMatchObject({ status: 'pending', fetchStatus: 'idle' });
    // The console's client: gone, so useIsAuthPending no longer reads it as pending.
    const ours = createQueryClient();
    await abandon(ours);
    expect(ours.getQueryState(canAccessKey)).toBeUndefined();
  });

  it('keeps answered auth queries and non-auth queries', async () => {
    const client = createQueryClient();
    await client.fetchQuery({ queryKey: canAccessKey, queryFn: () => true });
    const other = ['artworks', 'getOne', { id: '1' }];
    const observer = new QueryObserver(client, { queryKey: other, queryFn: slowAnswer });
    const unsubscribe = observer.subscribe(() => undefined);
    await flush();
    unsubscribe();
    await flush();
    expect(client.getQueryState(canAccessKey)).toMatchObject({ status: 'success', data: true });
    expect(client.getQueryState(other)).toBeDefined();
  });

  it('never retries a refusal, retries other failures three times', () => {
    expect(shouldRetry(0, { status: 403 })).toBe(false);
    expect(shouldRetry(0, { status: 500 })).toBe(true);
    expect(shouldRetry(3, new Error('network'))).toBe(false);
  });
});
