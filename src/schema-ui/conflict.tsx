/**
 * The edit page's conflict view (issue 32 item 4: no lost update, with no lock). The dataProvider sends
 * every update with `If-Match`, the revision the form was loaded at (src/dataProvider/index.ts `ifMatch`);
 * when the record was saved by someone else since, the server refuses it with 409 and the current record
 * (kernel/server/revisions.ts `staleRevision`: `data.current`, `data.changedBy`). Then:
 * - {@link useConflictOnError} (the Edit's `mutationOptions.onError`) keeps the three versions: what both
 *   started from (the save's `previousData`), theirs (the current record) and yours (the save's data). It
 *   puts theirs into the page's record (react-query's getOne entry): the form, which keeps the fields typed
 *   in (`resetOptions.keepDirtyValues`), now shows their values everywhere else and saves from their
 *   revision. Any other error is notified as react-admin does.
 * - {@link ConflictDialog} (in the form's toolbar) shows, field by field, the value when the form was
 *   opened, theirs and yours, with a choice per field (yours kept by default where you changed it); "Save"
 *   puts the chosen values in the form and saves them. Both edits are then in the record's history.
 */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  Radio,
  RadioGroup,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useFormContext } from 'react-hook-form';
import { useLocaleState, useNotify, useSaveContext, useTranslate, type HttpError } from 'react-admin';
import { schemaForResource, type ResourceSchema } from '../../kernel/dialect/schemaRegistry';
import { REVISION } from '../../kernel/dialect/revision';

type Values = Record<string, unknown>;

/** The three versions of a refused save. */
export interface EditConflict {
  /** The record the form was opened with: what both edits started from. */
  base: Values;
  /** The record as stored now (the 409's `data.current`). */
  theirs: Values;
  /** The fields this operator saved (the update's data). */
  yours: Values;
  /** The account that saved last, or null when unknown. */
  changedBy: string | null;
}

interface ConflictState {
  conflict: EditConflict | null;
  clear(): void;
}

const ConflictContext = createContext<ConflictState>({ conflict: null, clear: () => {} });

/** Provides the edit page's conflict (from {@link useConflictOnError}) to the form's {@link ConflictDialog}. */
export function ConflictProvider({ value, children }: { value: ConflictState; children: ReactNode }) {
  return <ConflictContext.Provider value={value}>{children}</ConflictContext.Provider>;
}

/** The body of a 409 for a stale revision, or undefined for any other error. */
function staleBody(error: unknown): { current: Values; changedBy: string | null } | undefined {
  const e = error as HttpError | undefined;
  const data = (e?.body as { data?: Values } | undefined)?.data;
  if (e?.status !== 409 || !data || data.field !== REVISION) return undefined;
  const current = data.current as Values | undefined;
  if (!current || typeof current !== 'object') return undefined;
  return { current, changedBy: typeof data.changedBy === 'string' ? data.changedBy : null };
}

/** Puts `current` into every getOne entry of record `id` of `resource` (whatever its meta): the page's record. */
function putCurrent(queryClient: QueryClient, resource: string, id: unknown, current: Values): void {
  queryClient.setQueriesData(
    {
      queryKey: [resource, 'getOne'],
      predicate: (q) => (q.queryKey[2] as { id?: unknown } | undefined)?.id === String(id),
    },
    current,
  );
}

/** Notifies `error` as react-admin's own mutation handlers do (its message, else the generic HTTP error). */
function notifyError(notify: ReturnType<typeof useNotify>, error: unknown): void {
  const message = typeof error === 'string' ? error : (error as Error | undefined)?.message;
  notify(message || 'ra.notification.http_error', { type: 'error', messageArgs: { _: message } });
}

/**
 * The edit page's update error handler and its conflict: a stale revision (409) becomes the conflict view;
 * anything else is notified as react-admin's default does (no notification for field errors in a
 * pessimistic save: the form shows them under the fields).
 */
export function useConflictOnError(resource: string) {
  const [conflict, setConflict] = useState<EditConflict | null>(null);
  const queryClient = useQueryClient();
  const notify = useNotify();
  const onError = useCallback(
    (error: unknown, variables: { id?: unknown; data?: unknown; previousData?: unknown } = {}) => {
      const stale = staleBody(error);
      if (stale) {
        // The page's record becomes theirs: untouched fields show their values, and the next save starts
        // from their revision.
        putCurrent(queryClient, resource, variables.id, stale.current);
        setConflict({
          base: (variables.previousData ?? {}) as Values,
          theirs: stale.current,
          yours: (variables.data ?? {}) as Values,
          changedBy: stale.changedBy,
        });
        return;
      }
      const errors = (error as HttpError | undefined)?.body?.errors;
      if (errors && Object.keys(errors).length) return;
      notifyError(notify, error);
    },
    [notify, queryClient, resource],
  );
  const state = useMemo(() => ({ conflict, clear: () => setConflict(null) }), [conflict]);
  return { onError, state };
}

/**
 * The delete button's error handler: the error is notified as react-admin does (the server's message: a
 * stale revision's names who changed the record since); a stale revision also puts the current record
 * (the 409's `data.current`) into the page's record, so the page shows what is stored now and a second
 * confirmation deletes that revision.
 */
export function useDeleteConflictOnError(resource: string) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  return useCallback(
    (error: unknown, variables: { id?: unknown } = {}) => {
      const stale = staleBody(error);
      if (stale) putCurrent(queryClient, resource, variables.id, stale.current);
      notifyError(notify, error);
    },
    [notify, queryClient, resource],
  );
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The writable top-level fields the three versions disagree on, in schema order. */
export function conflictFields(schema: ResourceSchema, c: EditConflict): string[] {
  return Object.entries(schema.properties)
    .filter(([, p]) => !p.readOnly && !p.writeOnly)
    .map(([name]) => name)
    .filter(
      (name) =>
        !same(c.theirs[name], c.base[name]) || (name in c.yours && !same(c.yours[name], c.base[name])),
    );
}

/** A value as one line of text: an enum's label, JSON for objects and lists (cut at 120), — for none. */
function shown(schema: ResourceSchema, field: string, value: unknown, lang: 'en' | 'zh'): string {
  if (value === undefined || value === null || value === '') return '—';
  const label = schema.properties[field]?.['x-enumLabels']?.[String(value)]?.[lang];
  if (label) return label;
  if (typeof value === 'object') {
    const text = JSON.stringify(value);
    return text.length > 120 ? `${text.slice(0, 119)}…` : text;
  }
  return String(value);
}

/** The conflict view of the edit form (see the module doc); renders nothing without a conflict. */
export function ConflictDialog({ resource }: { resource: string }) {
  const { conflict, clear } = useContext(ConflictContext);
  if (!conflict) return null;
  return <ConflictTable resource={resource} conflict={conflict} close={clear} />;
}

function ConflictTable({
  resource,
  conflict,
  close,
}: {
  resource: string;
  conflict: EditConflict;
  close: () => void;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const lang = locale === 'zh' ? 'zh' : 'en';
  const schema = schemaForResource(resource);
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const { setValue, getValues } = useFormContext();
  const { save } = useSaveContext();
  const fields = useMemo(() => conflictFields(schema, conflict), [schema, conflict]);
  const mineChanged = (f: string) => f in conflict.yours && !same(conflict.yours[f], conflict.base[f]);
  const [choice, setChoice] = useState<Record<string, 'mine' | 'theirs'>>(() =>
    Object.fromEntries(fields.map((f) => [f, mineChanged(f) ? 'mine' : 'theirs'])),
  );
  const actor = conflict.changedBy ?? translate('schemaUi.conflict.anotherWriter');
  const label = translate(`resources.${resource}.name`, { smart_count: 1, _: resource }).toLowerCase();
  /** Puts the chosen values in the form: yours dirty (sent), theirs as stored (not sent). */
  const applyChoices = (chosen: Record<string, 'mine' | 'theirs'>) => {
    for (const f of fields) {
      const mine = mineChanged(f) ? conflict.yours[f] : conflict.base[f];
      setValue(f, chosen[f] === 'mine' ? mine : conflict.theirs[f], { shouldDirty: chosen[f] === 'mine' });
    }
  };
  const apply = () => {
    applyChoices(choice);
    close();
    void save?.(getValues());
  };
  // Back to the form: what you typed stays in it (their values everywhere else); nothing is saved.
  const back = () => {
    applyChoices(Object.fromEntries(fields.map((f) => [f, mineChanged(f) ? 'mine' : 'theirs'])));
    close();
  };
  const rows = fields.map((f) => {
    const mine = mineChanged(f);
    const unchanged = translate('schemaUi.conflict.unchanged');
    return {
      field: f,
      label: translate(`resources.${resource}.fields.${f}`, { _: f }),
      base: shown(schema, f, conflict.base[f], lang),
      theirs: same(conflict.theirs[f], conflict.base[f])
        ? unchanged
        : shown(schema, f, conflict.theirs[f], lang),
      yours: mine ? shown(schema, f, conflict.yours[f], lang) : unchanged,
      agreed: mine && same(conflict.yours[f], conflict.theirs[f]),
    };
  });
  const picker = (f: string, agreed: boolean) =>
    agreed ? (
      translate('schemaUi.conflict.same')
    ) : (
      <RadioGroup
        row
        value={choice[f]}
        onChange={(_, v) => setChoice((c) => ({ ...c, [f]: v as 'mine' | 'theirs' }))}
      >
        <FormControlLabel
          value="mine"
          control={<Radio size="small" />}
          label={translate('schemaUi.conflict.keepMine')}
        />
        <FormControlLabel
          value="theirs"
          control={<Radio size="small" />}
          label={translate('schemaUi.conflict.keepTheirs')}
        />
      </RadioGroup>
    );
  const heads = {
    field: translate('schemaUi.conflict.field'),
    base: translate('schemaUi.conflict.base'),
    theirs: translate('schemaUi.conflict.theirs', { actor }),
    yours: translate('schemaUi.conflict.yours'),
    keep: translate('schemaUi.conflict.keep'),
  };
  return (
    <Dialog open onClose={back} maxWidth="md" fullWidth fullScreen={narrow} data-testid="conflict-view">
      <DialogTitle>{translate('schemaUi.conflict.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          {translate('schemaUi.conflict.intro', { actor, label })}
        </DialogContentText>
        {narrow ? (
          // A phone: one block per field, the three values one under the other.
          rows.map((r) => (
            <Box key={r.field} data-field={r.field} sx={{ py: 1, borderTop: 1, borderColor: 'divider' }}>
              <Typography variant="subtitle2" data-cell="label">
                {r.label}
              </Typography>
              <Typography variant="body2" data-cell="base">
                {heads.base}: {r.base}
              </Typography>
              <Typography variant="body2" data-cell="theirs">
                {heads.theirs}: {r.theirs}
              </Typography>
              <Typography variant="body2" data-cell="yours">
                {heads.yours}: {r.yours}
              </Typography>
              {picker(r.field, r.agreed)}
            </Box>
          ))
        ) : (
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{heads.field}</TableCell>
                <TableCell>{heads.base}</TableCell>
                <TableCell>{heads.theirs}</TableCell>
                <TableCell>{heads.yours}</TableCell>
                <TableCell>{heads.keep}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((r) => (
                <TableRow key={r.field} data-field={r.field}>
                  <TableCell component="th" scope="row" data-cell="label">
                    {r.label}
                  </TableCell>
                  <TableCell data-cell="base">{r.base}</TableCell>
                  <TableCell data-cell="theirs">{r.theirs}</TableCell>
                  <TableCell data-cell="yours">{r.yours}</TableCell>
                  <TableCell>{picker(r.field, r.agreed)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={back}>{translate('schemaUi.conflict.cancel')}</Button>
        <Button variant="contained" onClick={apply} data-testid="conflict-save">
          {translate('schemaUi.conflict.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
