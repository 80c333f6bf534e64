/**
 * Put on chain from a list, driven by a schema's `x-chain` keyword (kernel/dialect/keywords.ts):
 * `{ kind, path, status, onChain, after? }`: the ledger record kind (`author` | `artwork`), the
 * put-on-chain call (`POST <path>` with body `{id}`, server/routes/artmanager/{authors,artwork}/blockChain.ts),
 * the property holding the on-chain state, its values that mean "on chain", and for a record that may go
 * on chain only after another (an artwork after its author): `{ field, resource }`, the reference
 * property and the resource it points at (which has an `x-chain` of its own).
 *
 * - `PutOnChainRowButton`: the icon button on each list row; the result (block number, or why it was
 *   refused) is a notification.
 * - `BulkPutOnChainButton`: the bulk action on a selection: a dialog that lists every selected record,
 *   offers to put the authors not yet on chain first, then puts the records on chain (referenced
 *   records first, then the selection; 4 calls at a time), with a MUI `LinearProgress` over the records
 *   done and each record's own result: "on chain in block N", "already on chain, unchanged", "refused:
 *   the author X is not on chain yet" (the server's 409, data `{author}`), or the server's message.
 */
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  IconButton,
  LinearProgress,
  Link,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Tooltip,
  Typography,
} from '@mui/material';
import LinkIcon from '@mui/icons-material/Link';
import CheckCircle from '@mui/icons-material/CheckCircle';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import HourglassEmpty from '@mui/icons-material/HourglassEmpty';
import {
  useDataProvider,
  useListContext,
  useNotify,
  useRecordContext,
  useRefresh,
  useResourceContext,
  useTranslate,
  type Identifier,
  type RaRecord,
} from 'react-admin';
import { resourceSchemas, schemaForResource, type ResourceSchema } from '../../kernel/dialect/schemaRegistry';
import { apiPost } from '../resources/blockchain/api';
import { generatedResources } from '../generated/resources';

/** A schema's `x-chain` (see the module docstring). */
export interface ChainSpec {
  kind: 'author' | 'artwork';
  path: string;
  status: string;
  onChain: unknown[];
  after?: { field: string; resource: string };
}

/** The `x-chain` of a resource schema, or undefined when its records do not go on chain. */
export function chainSpecOf(schema: ResourceSchema): ChainSpec | undefined {
  return schema['x-chain'] as ChainSpec | undefined;
}

/** Whether `record` is on chain by `spec` (its status property holds one of `spec.onChain`). */
export function isOnChain(spec: ChainSpec, record: Record<string, unknown> | undefined): boolean {
  return !!record && spec.onChain.includes(record[spec.status]);
}

/** The display name of a record: its resource's `recordRepresentation` field, else `#id`. */
export function recordName(resource: string, record: Record<string, unknown> | undefined): string {
  const rep = generatedResources.find((r) => r.name === resource)?.recordRepresentation;
  const v = rep && record ? record[rep] : undefined;
  return typeof v === 'string' && v ? v : `#${String(record?.id ?? '')}`;
}

/**
 * The record a put-on-chain transaction writes: chaincode function `put<Kind>` (server/ledger/records.ts:
 * `putAuthor`, `putArtwork`) with `args[0]` the record id, matched against the schemas' `x-chain.kind`.
 * Undefined for any other transaction (e.g. chaincode lifecycle steps) or a non-numeric id.
 */
export function recordOfTransaction(
  fn: string,
  args: readonly string[],
): { resource: string; id: number; roles: string[] } | undefined {
  const id = Number(args[0]);
  if (!Number.isInteger(id) || id < 1) return undefined;
  for (const schema of resourceSchemas()) {
    const spec = chainSpecOf(schema);
    if (!spec) continue;
    if (fn === `put${spec.kind[0].toUpperCase()}${spec.kind.slice(1)}`)
      return { resource: schema['x-resource']!.name, id, roles: schema['x-roles'] ?? [] };
  }
  return undefined;
}

/** What one put-on-chain call answered, ready to show. */
export type ChainOutcome =
  | { state: 'waiting' | 'working' }
  | { state: 'done'; blockNumber: number; repeated: boolean }
  | { state: 'refused'; author: number }
  | { state: 'failed'; message: string };

interface PutAnswer {
  blockNumber: number;
  repeated: boolean;
}

/** Calls the record's put-on-chain endpoint; never rejects: the outcome says what happened. */
export async function putRecordOnChain(spec: ChainSpec, id: Identifier): Promise<ChainOutcome> {
  try {
    const r = await apiPost<PutAnswer>(spec.path, { id: Number(id) });
    return { state: 'done', blockNumber: r.blockNumber, repeated: r.repeated };
  } catch (err) {
    const e = err as { status?: number; body?: { data?: { author?: number } }; message?: string };
    if (e.status === 409 && typeof e.body?.data?.author === 'number')
      return { state: 'refused', author: e.body.data.author };
    return { state: 'failed', message: e.message ?? String(err) };
  }
}

/** The text of an outcome in the user's language; `authorName` names the author of a refusal. */
function useOutcomeText() {
  const translate = useTranslate();
  return (o: ChainOutcome, authorName?: string) => {
    switch (o.state) {
      case 'waiting':
        return translate('baas.chain.waiting');
      case 'working':
        return translate('baas.chain.working');
      case 'done':
        return translate(o.repeated ? 'baas.chain.repeated' : 'baas.chain.done', { number: o.blockNumber });
      case 'refused':
        return translate('baas.chain.refused_author', { name: authorName ?? `#${o.author}` });
      case 'failed':
        return translate('baas.chain.failed', { message: o.message });
    }
  };
}

/** The put-on-chain icon button of a list row (schemas with `x-chain`). */
export function PutOnChainRowButton() {
  const resource = useResourceContext()!;
  const record = useRecordContext();
  const spec = chainSpecOf(schemaForResource(resource));
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const text = useOutcomeText();
  const [busy, setBusy] = useState(false);
  if (!spec || !record) return null;
  const name = recordName(resource, record);
  const label = translate('baas.chain.put');
  return (
    <Tooltip title={label}>
      <span>
        <IconButton
          size="small"
          color="primary"
          aria-label={`${label}: ${name}`}
          data-testid="put-on-chain"
          disabled={busy}
          onClick={async (e) => {
            e.stopPropagation();
            setBusy(true);
            const o = await putRecordOnChain(spec, record.id);
            setBusy(false);
            const authorName = typeof record.authorName === 'string' ? record.authorName : undefined;
            notify(`${name}: ${text(o, authorName)}`, {
              type: o.state === 'done' ? 'success' : 'error',
            });
            if (o.state === 'done') refresh();
          }}
        >
          {busy ? <CircularProgress size={18} /> : <LinkIcon fontSize="small" />}
        </IconButton>
      </span>
    </Tooltip>
  );
}

interface Item {
  resource: string;
  id: Identifier;
  name: string;
  /** The referenced record (the author of an artwork): its id, and its name for a refusal. */
  afterId?: Identifier;
  afterName?: string;
  outcome: ChainOutcome;
}

/** Runs `work` over `items` with at most `width` at a time, in order of start. */
async function pool<T>(items: T[], width: number, work: (item: T, index: number) => Promise<void>) {
  let next = 0;
  const runner = async () => {
    while (next < items.length) {
      const i = next++;
      await work(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, runner));
}

/** The bulk action "put on chain" of a list whose schema has `x-chain` (see the module docstring). */
export function BulkPutOnChainButton() {
  const resource = useResourceContext()!;
  const spec = chainSpecOf(schemaForResource(resource))!;
  const { selectedIds, onUnselectItems } = useListContext();
  const dataProvider = useDataProvider();
  const translate = useTranslate();
  const refresh = useRefresh();
  const text = useOutcomeText();
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<Item[]>([]);
  const [pendingAfter, setPendingAfter] = useState<RaRecord[]>([]);
  const [afterFirst, setAfterFirst] = useState(false);
  const [phase, setPhase] = useState<'loading' | 'ready' | 'running' | 'finished'>('loading');

  const afterSpec = spec.after ? chainSpecOf(schemaForResource(spec.after.resource)) : undefined;

  const openDialog = async () => {
    setOpen(true);
    setPhase('loading');
    setAfterFirst(false);
    const { data } = await dataProvider.getMany(resource, { ids: selectedIds });
    const byId = new Map(data.map((r) => [String(r.id), r]));
    let after = new Map<string, RaRecord>();
    if (spec.after && afterSpec) {
      const ids = [...new Set(data.map((r) => r[spec.after!.field]).filter((v) => v != null))];
      const res = ids.length ? await dataProvider.getMany(spec.after.resource, { ids }) : { data: [] };
      after = new Map(res.data.map((r) => [String(r.id), r]));
      setPendingAfter(res.data.filter((r) => !isOnChain(afterSpec, r)));
    } else setPendingAfter([]);
    setItems(
      selectedIds.map((id) => {
        const r = byId.get(String(id));
        const ref = spec.after && r ? after.get(String(r[spec.after.field])) : undefined;
        return {
          resource,
          id,
          name: recordName(resource, r ?? { id }),
          afterId: ref?.id,
          afterName: ref && spec.after ? recordName(spec.after.resource, ref) : undefined,
          outcome: { state: 'waiting' },
        };
      }),
    );
    setPhase('ready');
  };

  const run = async () => {
    setPhase('running');
    const first: Item[] =
      afterFirst && spec.after && afterSpec
        ? pendingAfter.map((r) => ({
            resource: spec.after!.resource,
            id: r.id,
            name: recordName(spec.after!.resource, r),
            outcome: { state: 'waiting' },
          }))
        : [];
    let all = [...first, ...items.map((i) => ({ ...i, outcome: { state: 'waiting' } as ChainOutcome }))];
    setItems(all);
    const set = (index: number, outcome: ChainOutcome) => {
      all = all.map((it, i) => (i === index ? { ...it, outcome } : it));
      setItems(all);
    };
    const runPhase = async (from: number, to: number, s: ChainSpec) =>
      pool(
        all.slice(from, to).map((_, k) => from + k),
        4,
        async (index) => {
          set(index, { state: 'working' });
          set(index, await putRecordOnChain(s, all[index].id));
        },
      );
    // Referenced records (authors) first: an artwork is refused while its author is not on chain.
    if (first.length && afterSpec) await runPhase(0, first.length, afterSpec);
    await runPhase(first.length, all.length, spec);
    setPhase('finished');
    refresh();
  };

  const close = () => {
    if (phase === 'running') return;
    setOpen(false);
    if (phase === 'finished') onUnselectItems();
  };

  const finished = items.filter((i) => i.outcome.state !== 'waiting' && i.outcome.state !== 'working');
  const ok = items.filter((i) => i.outcome.state === 'done').length;
  return (
    <>
      <Button
        size="small"
        startIcon={<LinkIcon />}
        onClick={() => void openDialog()}
        data-testid="bulk-put-on-chain"
      >
        {translate('baas.chain.put_selected')}
      </Button>
      <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="put-on-chain-title">
        <DialogTitle id="put-on-chain-title">
          {translate('baas.chain.title', { smart_count: selectedIds.length })}
        </DialogTitle>
        <DialogContent dividers>
          {phase === 'loading' ? (
            <LinearProgress />
          ) : (
            <>
              {phase === 'ready' && pendingAfter.length > 0 && (
                <Alert severity="info" sx={{ mb: 1 }}>
                  {translate('baas.chain.authors_needed', {
                    smart_count: items.filter((i) =>
                      pendingAfter.some((a) => String(a.id) === String(i.afterId)),
                    ).length,
                  })}
                  <FormControlLabel
                    control={
                      <Checkbox
                        checked={afterFirst}
                        onChange={(e) => setAfterFirst(e.target.checked)}
                        data-testid="authors-first"
                      />
                    }
                    label={translate('baas.chain.authors_first', { smart_count: pendingAfter.length })}
                  />
                </Alert>
              )}
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                <LinearProgress
                  variant="determinate"
                  value={items.length ? (100 * finished.length) / items.length : 0}
                  sx={{ flex: 1 }}
                  aria-label={translate('baas.chain.progress', {
                    done: finished.length,
                    total: items.length,
                  })}
                />
                <Typography variant="body2" data-testid="put-on-chain-progress">
                  {translate('baas.chain.progress', { done: finished.length, total: items.length })}
                </Typography>
              </Box>
              {phase === 'finished' && (
                <Typography variant="body2" sx={{ mt: 1 }} data-testid="put-on-chain-summary">
                  {translate('baas.chain.summary', { ok, failed: items.length - ok })}
                </Typography>
              )}
              <List dense data-testid="put-on-chain-results">
                {items.map((it) => (
                  <ListItem
                    key={`${it.resource}-${it.id}`}
                    data-record-id={String(it.id)}
                    data-resource={it.resource}
                    data-state={it.outcome.state}
                    disableGutters
                  >
                    <ListItemIcon sx={{ minWidth: 32 }}>
                      {it.outcome.state === 'done' ? (
                        <CheckCircle color="success" fontSize="small" />
                      ) : it.outcome.state === 'refused' || it.outcome.state === 'failed' ? (
                        <ErrorOutline color="error" fontSize="small" />
                      ) : it.outcome.state === 'working' ? (
                        <CircularProgress size={16} />
                      ) : (
                        <HourglassEmpty color="disabled" fontSize="small" />
                      )}
                    </ListItemIcon>
                    <ListItemText
                      primary={
                        <Link component={RouterLink} to={`/${it.resource}/${it.id}/show`}>
                          {it.name}
                        </Link>
                      }
                      secondary={text(it.outcome, it.afterName)}
                    />
                  </ListItem>
                ))}
              </List>
            </>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={phase === 'running'}>
            {translate('baas.chain.close')}
          </Button>
          {phase === 'ready' && (
            <Button variant="contained" onClick={() => void run()} data-testid="put-on-chain-start">
              {translate('baas.chain.start')}
            </Button>
          )}
        </DialogActions>
      </Dialog>
    </>
  );
}
