/**
 * "This record was changed by <actor> since you opened it" (issue 32: a kept-alive page knows when its
 * record changed elsewhere, and says so before the operator types).
 *
 * An edit page's record is queried under its own key ({@link useEditQueryOptions}: `meta`
 * {@link KEPT_EDIT_META}), which the live updates do not reload under the operator (./liveUpdates.ts). When a
 * change made elsewhere is heard of after the form's record was loaded, {@link ChangedElsewhere} asks the
 * server for the record and compares it with the one the form was loaded from; if they differ, it shows the
 * notice, with a button that reloads the form's values from the stored record (fields typed in and not
 * saved keep their values, as when a kept page is shown again: src/schema-ui/views.tsx). Its own saves
 * never warn: their events carry this tab's id.
 *
 * A hidden kept page (src/layout/keepAlive.tsx) runs no effects; shown again, its record query would
 * refetch and the form take the new values silently. {@link useEditQueryOptions} stops that refetch while
 * the live stream has been open since the record was loaded (a change would have been heard of, and the
 * notice says so); otherwise (no stream, or it dropped since) the record is refetched as before.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Alert, Button } from '@mui/material';
import type { Query } from '@tanstack/react-query';
import { useDataProvider, useEditContext, useTranslate, type RaRecord } from 'react-admin';
import {
  KEPT_EDIT_META,
  changeOf,
  changesVersion,
  heardSince,
  subscribeChanges,
  type RecordChange,
} from './liveUpdates';

/** JSON of `value` with object keys sorted (records compared whatever their key order). */
function stable(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * The `queryOptions` additions of an edit page (`<Edit queryOptions>`): its own query key, and no silent
 * refetch when a kept page is shown again while the live stream vouches for its record (module doc).
 */
export function useEditQueryOptions(): {
  meta: typeof KEPT_EDIT_META;
  refetchOnMount: (query: Pick<Query, 'state'>) => boolean;
} {
  // Set when the page is hidden (its effects are destroyed then): the next subscription is a re-show.
  const hiddenOnce = useRef(false);
  useEffect(
    () => () => {
      hiddenOnce.current = true;
    },
    [],
  );
  return {
    meta: KEPT_EDIT_META,
    refetchOnMount: (query: Pick<Query, 'state'>) =>
      !(hiddenOnce.current && heardSince(query.state.dataUpdatedAt)),
  };
}

/** The notice of an edit page (inside react-admin's `<Edit>`, above its form). */
export function ChangedElsewhere() {
  const translate = useTranslate();
  const dataProvider = useDataProvider();
  const { record, resource, refetch, isFetching } = useEditContext<RaRecord>();
  useSyncExternalStore(subscribeChanges, changesVersion);
  // When the form's record was loaded: when this record object was first seen here.
  const loaded = useRef<{ record: unknown; at: number }>({ record: undefined, at: 0 });
  if (loaded.current.record !== record) loaded.current = { record, at: Date.now() };
  const change = record && resource ? changeOf(resource, String(record.id)) : undefined;
  const news = change && change.at >= loaded.current.at ? change : undefined;
  const [shown, setShown] = useState<RecordChange | undefined>();

  useEffect(() => {
    if (!news || !record || !resource) return setShown(undefined);
    let current = true;
    dataProvider
      .getOne(resource, { id: record.id })
      .then(({ data }) => {
        if (current) setShown(stable(data) === stable(record) ? undefined : news);
      })
      .catch(() => {
        // gone or refused: the page's own query says so when it reloads
      });
    return () => {
      current = false;
    };
  }, [news, record, resource, dataProvider]);

  if (!shown) return null;
  return (
    <Alert
      severity="warning"
      data-testid="changed-elsewhere"
      sx={{ mx: 2, mt: 2 }}
      action={
        <Button color="inherit" size="small" disabled={isFetching} onClick={() => void refetch?.()}>
          {translate('schemaUi.live.reload')}
        </Button>
      }
    >
      {shown.actor
        ? translate('schemaUi.live.changedBy', { actor: shown.actor })
        : translate('schemaUi.live.changedElsewhere')}
    </Alert>
  );
}
