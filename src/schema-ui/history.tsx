/**
 * The History tab of every generic show page (issue 21 item 3): the record's revisions from
 * `GET /dev-api/history/revisions` (server/routes/dev-api/history), newest first, each with what was
 * done (created, edited, deleted, put on chain), who and when, and a field-by-field diff: the field's
 * label from the schema (`resources.<name>.fields.<field>`), enum values by their labels, in the
 * console's language. A put-on-chain revision links to its ledger transaction and the record's
 * verification page. Every older revision with recorded values has "Revert to this revision" (confirmed;
 * shown only to accounts whose roles admit the resource's update call;
 * `POST /dev-api/history/revert`, a new edit the server validates and audits); the server's refusal
 * (409 when a unique or reference rule would break) is shown as it says.
 *
 * Usage: `<TabbedShowLayout.Tab label=… path="history"><HistoryTab /></TabbedShowLayout.Tab>` (views.tsx).
 */
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Link,
  Stack,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import {
  Confirm,
  useCanAccess,
  useNotify,
  useRecordContext,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import { enumLabelKey } from '../../kernel/dialect/kinds';
import { schemaForResource } from '../../kernel/dialect/schemaRegistry';
import { httpClient } from '../dataProvider/httpClient';
import { useServerAction } from '../utils/useServerAction';
import { toQuery } from '../dataProvider';
import { TranslatedTable } from '../layout/TranslatedTableHead';

interface Change {
  field: string;
  before: unknown;
  after: unknown;
  /** The field's name when the revision was written, when a schema migration renamed it since. */
  formerly?: string;
}

interface Revision {
  id: number;
  time: string;
  account: string;
  call: string;
  operation: 'create' | 'update' | 'delete' | 'chain';
  recorded: boolean;
  changes: Change[];
  txId: string | null;
}

/** The ledger's record kinds (common/ledger/recordFields.ts) by resource name, for the verification page. */
const CHAIN_KIND: Record<string, string> = { authors: 'author', artworks: 'artwork' };

/** A value as the diff shows it: enum label, yes/no, "—" for empty, JSON for objects and lists. */
function useValueText(resource: string) {
  const translate = useTranslate();
  const schema = schemaForResource(resource);
  return (field: string, value: unknown): string => {
    if (value === null || value === undefined || value === '') return '—';
    const prop = schema.properties[field];
    if (prop?.enum || prop?.['x-enumLabels'])
      return translate(enumLabelKey(resource, field, value), { _: String(value) });
    if (typeof value === 'boolean') return translate(value ? 'ra.boolean.true' : 'ra.boolean.false');
    if (typeof value === 'object') return JSON.stringify(value);
    return String(value);
  };
}

function Diff({ resource, revision }: { resource: string; revision: Revision }) {
  const translate = useTranslate();
  const text = useValueText(resource);
  if (!revision.changes.length) return null;
  return (
    <TranslatedTable
      testId="history-diff"
      columns={['schemaUi.history.field', 'schemaUi.history.before', 'schemaUi.history.after']}
    >
      {revision.changes.map((c) => (
        <TableRow key={c.field}>
          {/* A floor for the field's name: a long value (a section's JSON) squeezed it to one character a
              line. */}
          <TableCell sx={{ width: '22%', minWidth: '6em' }}>
            {translate(`resources.${resource}.fields.${c.field}`, { _: c.field })}
            {c.formerly && (
              <Typography
                component="span"
                variant="caption"
                color="text.secondary"
                data-testid="history-formerly"
              >
                {' '}
                {translate('schemaUi.history.formerly', { name: c.formerly })}
              </Typography>
            )}
          </TableCell>
          <TableCell sx={{ wordBreak: 'break-word', color: 'text.secondary' }}>
            {revision.recorded || c.before !== null ? text(c.field, c.before) : '?'}
          </TableCell>
          <TableCell sx={{ wordBreak: 'break-word' }}>
            {revision.recorded ? text(c.field, c.after) : '?'}
          </TableCell>
        </TableRow>
      ))}
    </TranslatedTable>
  );
}

function RevertButton({ resource, id, revision }: { resource: string; id: number; revision: Revision }) {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const { busy, run } = useServerAction();
  const confirm = () =>
    run(async () => {
      await httpClient('/dev-api/history/revert', {
        method: 'POST',
        body: JSON.stringify({ resource, id, revision: revision.id }),
      });
      notify('schemaUi.history.reverted', { type: 'success', messageArgs: { id: revision.id } });
      await queryClient.invalidateQueries({ queryKey: ['history', resource, id] });
    }).finally(() => setOpen(false));
  return (
    <>
      <Button size="small" variant="outlined" onClick={() => setOpen(true)} disabled={busy}>
        {translate('schemaUi.history.revert')}
      </Button>
      <Confirm
        isOpen={open}
        loading={busy}
        title={translate('schemaUi.history.revertTitle')}
        content={translate('schemaUi.history.revertContent')}
        onConfirm={confirm}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

/** The History tab's content: the record's revisions (see the module doc). */
export function HistoryTab() {
  const translate = useTranslate();
  const resource = useResourceContext()!;
  const record = useRecordContext<{ id: number }>();
  const id = record?.id;
  // Revert is an update: offered only to accounts whose roles admit the resource's update call
  // (authProvider canAccess `edit`, x-endpoints.update.roles); the server refuses the others (403) itself.
  const { canAccess: mayUpdate } = useCanAccess({ resource, action: 'edit', record });
  const canRevert = !!schemaForResource(resource)['x-endpoints']?.update && mayUpdate === true;
  // Keyed by the record's id only, keeping the shown revisions while they refetch: a revert (or any
  // refresh) reloads the record, and a key holding the record would blank the tab until the new list came.
  const { data, error } = useQuery({
    queryKey: ['history', resource, id],
    placeholderData: keepPreviousData,
    queryFn: async () =>
      (await httpClient<{ list: Revision[] }>(`/dev-api/history/revisions${toQuery({ resource, id })}`)).json
        .data.list,
    enabled: !!id,
    retry: false,
  });
  if (error) return <Typography color="error">{(error as Error).message}</Typography>;
  if (!data) return null;
  if (!data.length)
    return <Typography color="text.secondary">{translate('schemaUi.history.empty')}</Typography>;
  const kind = CHAIN_KIND[resource];
  return (
    <Stack spacing={2} data-testid="history">
      {data.map((r, i) => (
        <Card key={r.id} variant="outlined" data-testid="revision">
          <CardContent>
            <Stack
              direction="row"
              spacing={1}
              sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1, mb: 1 }}
            >
              <Chip size="small" label={translate(`schemaUi.history.${r.operation}`)} />
              <Typography variant="body2" sx={{ fontWeight: 500 }}>
                {translate('schemaUi.history.revision', { id: r.id })}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {translate('schemaUi.history.by', { account: r.account || '—', time: r.time })}
              </Typography>
              {r.txId && (
                <Link component={RouterLink} to={`/baas/transaction/${r.txId}`} variant="body2">
                  {translate('schemaUi.history.transaction')}
                </Link>
              )}
              {r.txId && kind && (
                <Link href={`#/verify/${kind}/${id}`} variant="body2">
                  {translate('schemaUi.history.verify')}
                </Link>
              )}
              <Box sx={{ flexGrow: 1 }} />
              {canRevert && i > 0 && r.recorded && r.operation !== 'delete' && (
                <RevertButton resource={resource} id={id!} revision={r} />
              )}
            </Stack>
            {!r.recorded && (
              <Typography variant="caption" color="text.secondary">
                {translate('schemaUi.history.notRecorded')}
              </Typography>
            )}
            <Diff resource={resource} revision={r} />
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}
