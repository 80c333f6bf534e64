import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { createQueryClient, shouldRetry } from './queryClient';

/** The key ra-core's views read (useIsAuthPending) and a component without its record makes (useCanAccess). */
const canAccessKey = ['auth', 'canAccess', { action: 'show', resource: 'artworks' }];
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
async function abandonMidRequest(client: QueryClient) {
  const observer = new QueryObserver(client, { queryKey: canAccessKey, queryFn: slowAnswer });
  const unsubscribe = observer.subscribe(() => undefined);
  await flush();
  expect(client.getQueryState(canAccessKey)?.fetchStatus).toBe('fetching');
  unsubscribe();
  await flush();
}

/** What a render that never commits leaves: the query built in the cache, never observed nor fetched. */
function buildWithoutObserving(client: QueryClient) {
  client.getQueryCache().build(client, { queryKey: canAccessKey, queryFn: slowAnswer });
}

describe('createQueryClient', () => {
  it('reads an auth query abandoned mid-request as absent; react-query alone leaves it pending', async () => {
    const plain = new QueryClient();
    await abandonMidRequest(plain);
    expect(plain.getQueryState(canAccessKey)).toMatchObject({ status: 'pending', fetchStatus: 'idle' });
    const ours = createQueryClient();
    await abandonMidRequest(ours);
    expect(ours.getQueryState(canAccessKey)).toBeUndefined();
  });

  it('reads an auth query built by a render that never committed as absent', () => {
    const plain = new QueryClient();
    buildWithoutObserving(plain);
    expect(plain.getQueryState(canAccessKey)).toMatchObject({ status: 'pending', fetchStatus: 'idle' });
    const ours = createQueryClient();
    buildWithoutObserving(ours);
    expect(ours.getQueryState(canAccessKey)).toBeUndefined();
  });

  it('still reports an auth check under way as pending, and an answered one as answered', async () => {
    const client = createQueryClient();
    const observer = new QueryObserver(client, { queryKey: canAccessKey, queryFn: slowAnswer });
    const unsubscribe = observer.subscribe(() => undefined);
    await flush();
    expect(client.getQueryState(canAccessKey)).toMatchObject({ status: 'pending', fetchStatus: 'fetching' });
    await new Promise((r) => setTimeout(r, 250));
    expect(client.getQueryState(canAccessKey)).toMatchObject({ status: 'success', data: true });
    unsubscribe();
    // Other queries are read as react-query keeps them.
    const other = ['artworks', 'getOne', { id: '1' }];
    client.getQueryCache().build(client, { queryKey: other });
    expect(client.getQueryState(other)).toMatchObject({ status: 'pending', fetchStatus: 'idle' });
  });

  it('never retries a refusal, retries other failures three times', () => {
    expect(shouldRetry(0, { status: 403 })).toBe(false);
    expect(shouldRetry(0, { status: 500 })).toBe(true);
    expect(shouldRetry(3, new Error('network'))).toBe(false);
  });
});
