/**
 * The pigeonhole's buttons (kernel/dialect/keywords.ts `x-archive`; server/routes/data-api/pigeonhole.ts):
 * - `ArchiveButton`: on the list rows and the show page of a resource whose schema says `x-archive`;
 *   asks for confirmation, calls `POST /data-api/pigeonhole/archive {resource, id}`, then goes back to
 *   the list (the record has left it);
 * - `RestoreButton`: on an archived record (Data > Pigeonhole, list row and show page); calls
 *   `POST /data-api/pigeonhole/restore {id}`, then opens the restored record.
 * The server's refusal (a record still referring to it, a unique value taken meanwhile) is notified in
 * the console's language (src/dataProvider/httpClient.ts renders the envelope's message key).
 */
import { useState } from 'react';
import { Button, Tooltip } from '@mui/material';
import Inventory from '@mui/icons-material/Inventory';
import Restore from '@mui/icons-material/Restore';
import {
  Confirm,
  useCreatePath,
  useNotify,
  useRecordContext,
  useRedirect,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import { apiPost } from '../resources/blockchain/api';
import { useServerAction } from '../utils/useServerAction';
import { recordName } from './chain';

/** Archive the current record (see the module doc). */
export function ArchiveButton() {
  const resource = useResourceContext()!;
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const [open, setOpen] = useState(false);
  const { busy, run } = useServerAction();
  if (!record) return null;
  const name = recordName(resource, record);
  return (
    <>
      <Tooltip title={translate('baas.archive.archive')}>
        <Button
          size="small"
          startIcon={<Inventory fontSize="small" />}
          data-testid="archive"
          aria-label={`${translate('baas.archive.archive')}: ${name}`}
          onClick={(e) => {
            e.stopPropagation();
            setOpen(true);
          }}
        >
          {translate('baas.archive.archive')}
        </Button>
      </Tooltip>
      <Confirm
        isOpen={open}
        loading={busy}
        title={translate('baas.archive.confirm_title', { name })}
        content={translate('baas.archive.confirm_content')}
        onClose={(e: React.MouseEvent) => {
          e?.stopPropagation?.();
          setOpen(false);
        }}
        onConfirm={(e: React.MouseEvent) => {
          e?.stopPropagation?.();
          return run(async () => {
            await apiPost('/data-api/pigeonhole/archive', { resource, id: record.id });
            notify(translate('baas.archive.archived', { name }), { type: 'success' });
            setOpen(false);
            redirect('list', resource);
          }).finally(() => setOpen(false));
        }}
      />
    </>
  );
}

/** Restore the current archived record (see the module doc). */
export function RestoreButton() {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const createPath = useCreatePath();
  const { busy, run } = useServerAction();
  if (!record) return null;
  const name = String(record.title ?? `#${String(record.id)}`);
  return (
    <Button
      size="small"
      startIcon={<Restore fontSize="small" />}
      disabled={busy}
      data-testid="restore"
      aria-label={`${translate('baas.archive.restore')}: ${name}`}
      onClick={(e) => {
        e.stopPropagation();
        // Leaves for the restored record's page: nothing here to refresh.
        void run(
          async () => {
            const restored = await apiPost<{ id: number }>('/data-api/pigeonhole/restore', { id: record.id });
            notify(translate('baas.archive.restored', { name }), { type: 'success' });
            redirect(createPath({ resource: String(record.resource), id: restored.id, type: 'show' }));
          },
          { refresh: false },
        );
      }}
    >
      {translate('baas.archive.restore')}
    </Button>
  );
}
