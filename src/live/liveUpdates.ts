/**
 * What the console does with the live record events (issue 32, "Live"; ./liveStream.ts receives them):
 *
 * - Lists, show pages, references and history of the event's resource are invalidated in react-query
 *   (react-admin's cache: keys `[resource, verb, params]`, and `['history', resource, id]`), so the ones on
 *   screen refetch and the hidden ones refetch when next shown. Events arriving together are handled
 *   together ({@link FLUSH_MS}): an import's many events reload a list once.
 * - An edit page's record is NOT reloaded under the operator (it is queried under its own key, with
 *   {@link KEPT_EDIT_META}; src/live/ChangedElsewhere.tsx). A change made elsewhere (another tab, another
 *   operator: the event's `clientId` is not this tab's) is remembered here per record, with its actor, and
 *   the edit page's notice compares the stored record with the one its form was loaded from. A change
 *   this tab saved itself reloads the edit page's record at once (its form keeps what was typed).
 * - After the stream reconnected, or when the server says `resync`, every query is invalidated and every
 *   record counts as possibly changed (actor unknown): events may have been missed meanwhile.
 */
import type { Query, QueryClient } from '@tanstack/react-query';
import type { LiveRecordEvent } from './liveStream';

/** The `meta` of an edit page's record query (part of its key: see the module doc). */
export const KEPT_EDIT_META = { keptEdit: true } as const;

/** Events arriving within this many ms of the first are handled together. */
export const FLUSH_MS = 100;

/** Whether `query` is an edit page's record query. */
export function isKeptEditQuery(query: Pick<Query, 'queryKey'>): boolean {
  const params = query.queryKey[2] as { meta?: { keptEdit?: unknown } } | undefined;
  return query.queryKey[1] === 'getOne' && !!params?.meta?.keptEdit;
}

/** A change made elsewhere: by whom (null: unknown) and when it was heard of (ms since the epoch). */
export interface RecordChange {
  actor: string | null;
  at: number;
}

/** Changes made elsewhere, by `resource/id`; `resource/*` for a resource, `*` for all. */
const changes = new Map<string, RecordChange>();
const listeners = new Set<() => void>();
/** Bumped on every change, so that {@link useRecordChange}'s snapshot moves. */
let version = 0;

const keyOf = (resource: string, id: string | null) => `${resource}/${id ?? '*'}`;

function remember(key: string, actor: string | null): void {
  changes.set(key, { actor, at: Date.now() });
  version++;
  for (const l of [...listeners]) l();
}

/** Subscribes to the changes made elsewhere (useSyncExternalStore's `subscribe`). */
export function subscribeChanges(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** A number that moves with every change remembered (useSyncExternalStore's snapshot). */
export const changesVersion = () => version;

/** The latest change made elsewhere to record `id` of `resource` (its own, its resource's, or all). */
export function changeOf(resource: string, id: string): RecordChange | undefined {
  let latest: RecordChange | undefined;
  for (const key of [keyOf(resource, id), keyOf(resource, null), '*']) {
    const c = changes.get(key);
    if (c && (!latest || c.at > latest.at)) latest = c;
  }
  return latest;
}

/** Forgets every change (the session ended). */
export function forgetChanges(): void {
  changes.clear();
  version++;
}

/** Resources whose queries wait for the next flush, and whether everything does. */
let pending = new Set<string>();
let pendingAll = false;
let flushTimer: ReturnType<typeof setTimeout> | undefined;

function schedule(queryClient: QueryClient): void {
  if (flushTimer !== undefined) return;
  flushTimer = setTimeout(() => {
    flushTimer = undefined;
    const resources = pending;
    const all = pendingAll;
    pending = new Set();
    pendingAll = false;
    void queryClient.invalidateQueries({
      predicate: (q) =>
        !isKeptEditQuery(q) &&
        q.queryKey[0] !== 'auth' &&
        (all ||
          resources.has(String(q.queryKey[0])) ||
          (q.queryKey[0] === 'history' && resources.has(String(q.queryKey[1])))),
    });
  }, FLUSH_MS);
}

/**
 * Handles one record event (see the module doc). `ownClientId`: this tab's id (./clientId.ts).
 */
export function applyEvent(queryClient: QueryClient, event: LiveRecordEvent, ownClientId: string): void {
  pending.add(event.resource);
  schedule(queryClient);
  const own = event.clientId !== null && event.clientId === ownClientId;
  if (!own) {
    remember(keyOf(event.resource, event.action === 'many' ? null : event.id), event.actor || null);
    return;
  }
  // This tab's own save: the edit page's record follows at once, hidden or not.
  void queryClient.invalidateQueries({
    refetchType: 'all',
    predicate: (q) =>
      isKeptEditQuery(q) &&
      q.queryKey[0] === event.resource &&
      (event.id === null || (q.queryKey[2] as { id?: unknown }).id === event.id),
  });
}

/** Events may have been missed: everything reloads, every record counts as possibly changed. */
export function resyncAll(queryClient: QueryClient): void {
  pendingAll = true;
  schedule(queryClient);
  remember('*', null);
}

/** The current connection's start (ms since the epoch), undefined while there is none. */
let connectedSince: () => number | undefined = () => undefined;

/** Sets where {@link liveSince} reads from (src/live/LiveUpdates.tsx). */
export function setConnectedSince(read: () => number | undefined): void {
  connectedSince = read;
}

/**
 * Whether data fetched at `time` (ms since the epoch) is known to be current but for the changes
 * remembered here: the stream has been ready without a break since before it was fetched.
 */
export function heardSince(time: number): boolean {
  const since = connectedSince();
  return since !== undefined && since <= time;
}
