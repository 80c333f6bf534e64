/**
 * The list's Import button, for every generated list whose resource has a create call: upload a CSV, XLSX
 * or JSON file (CSV in UTF-8, GBK or UTF-16, up to the server's IMPORT_MAX_BYTES); the server's dry run
 * (kernel/server/importJobs.ts, `/dev-api/import/*`) shows, above everything, the header row's unknown and
 * missing columns (the server's sentence in the console's language), then the counts of new, changed,
 * unchanged and rejected rows, a sample of the changes and the first rejects (row, field, reason in the
 * console's language), with the whole reject report to download; a file the server refuses (too large,
 * an encoding it cannot read, no known column) is named in the dialog with the server's message; then Import writes the rows in
 * batches (one `commit` call each) with progress. The job lives on the server: after a reload the dialog
 * offers to continue the unfinished job. The server enforces the admin role.
 */
import { useEffect, useState } from 'react';
import { useNotify, useRefresh, useResourceContext, useTranslate } from 'react-admin';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Table,
  type Theme,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
} from '@mui/material';
import UploadIcon from '@mui/icons-material/Publish';
import { consoleLanguage, getToken, httpClient } from '../dataProvider/httpClient';
import { toQuery } from '../dataProvider';

/** A job as the server answers it (kernel/server/importJobs.ts `JobSummary`). */
interface Job {
  id: string;
  fileName: string;
  status: 'ready' | 'committing' | 'done' | 'discarded';
  total: number;
  counts: { new: number; changed: number; unchanged: number; rejected: number };
  /** The header row's report in the console's language ('' when every column is known). */
  columnsText: string;
  committed: number;
  toWrite: number;
  sample: { row: number; action: string; before: unknown; after: unknown }[];
  rejects: { row: number; field: string; reason: string }[];
}

const BASE = '/dev-api/import';

async function call<T>(path: string, body?: unknown): Promise<T> {
  const init =
    body === undefined
      ? { method: 'GET' as const }
      : { method: 'POST' as const, body: body instanceof FormData ? body : JSON.stringify(body) };
  return (await httpClient<T>(`${BASE}${path}`, init)).json.data;
}

/** Saves the job's reject report (CSV in the console's language). */
async function downloadRejects(id: string) {
  const headers: Record<string, string> = { 'Accept-Language': consoleLanguage() };
  const token = getToken();
  if (token) headers['X-Token'] = token;
  const blob = await (await fetch(`${BASE}/rejects${toQuery({ id })}`, { headers })).blob();
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = `rejects-${id}.csv`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/** A cell value as the sample shows it: text as is, other values as JSON, at most 80 characters. */
const brief = (v: unknown) =>
  v === null || v === undefined ? '—' : (typeof v === 'string' ? v : JSON.stringify(v)).slice(0, 80);

/** A sample row's changes as "label: value" (a change: "label: before → after"), one per line. */
function changesText(label: (field: string) => string, before: unknown, after: unknown): string[] {
  const old = (before ?? {}) as Record<string, unknown>;
  return Object.entries((after ?? {}) as Record<string, unknown>).map(([k, v]) =>
    before ? `${label(k)}: ${brief(old[k])} → ${brief(v)}` : `${label(k)}: ${brief(v)}`,
  );
}

/** A table's header row: the `baas.transfer.<key>` texts. */
function HeadRow({ keys }: { keys: string[] }) {
  const translate = useTranslate();
  return (
    <TableHead>
      <TableRow>
        {keys.map((k) => (
          <TableCell key={k}>{translate(`baas.transfer.${k}`)}</TableCell>
        ))}
      </TableRow>
    </TableHead>
  );
}

/** The Import button and dialog of the current list. */
export function ImportButton() {
  const resource = useResourceContext()!;
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [job, setJob] = useState<Job | null>(null);
  const [resume, setResume] = useState<Job | null>(null);
  const [busy, setBusy] = useState<'checking' | 'committing' | null>(null);
  /** The server's refusal of the picked file (its message in the console's language). */
  const [refused, setRefused] = useState<string | null>(null);
  const name = translate(`resources.${resource}.name`, { smart_count: 2 });
  const label = (field: string) => translate(`resources.${resource}.fields.${field}`, { _: field });
  // A phone gets the whole screen: the report's tables need the width.
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));

  useEffect(() => {
    if (!open) return;
    call<Job[]>(`/jobs${toQuery({ resource })}`)
      .then((jobs) => setResume(jobs[0] ?? null))
      .catch(() => setResume(null));
  }, [open, resource]);

  const pick = async (file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    setBusy('checking');
    setRefused(null);
    try {
      setJob(await call<Job>(`/dryRun${toQuery({ resource })}`, form));
      setResume(null);
    } catch (e) {
      setRefused((e as Error).message);
    } finally {
      setBusy(null);
    }
  };

  const commit = async (start: Job) => {
    setBusy('committing');
    let current = start;
    try {
      while (current.status !== 'done') {
        current = await call<Job>('/commit', { id: current.id });
        setJob(current);
      }
      notify('baas.transfer.import_done', { type: 'success', messageArgs: current.counts });
      refresh();
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    } finally {
      setBusy(null);
    }
  };

  const close = () => {
    setOpen(false);
    setJob(null);
    setRefused(null);
  };
  const progress = job && job.toWrite ? (100 * Math.min(job.committed, job.toWrite)) / job.toWrite : 0;
  return (
    <>
      <Button
        size="small"
        startIcon={<UploadIcon />}
        onClick={() => setOpen(true)}
        data-testid="import-button"
      >
        {translate('baas.transfer.import')}
      </Button>
      <Dialog
        open={open}
        onClose={busy ? undefined : close}
        fullWidth
        fullScreen={small}
        maxWidth="md"
        data-testid="import-dialog"
      >
        <DialogTitle>{translate('baas.transfer.import_title', { name })}</DialogTitle>
        <DialogContent>
          {resume && !job && (
            <Alert
              severity="info"
              sx={{ mb: 2 }}
              action={
                <>
                  <Button onClick={() => setJob(resume)} data-testid="import-resume">
                    {translate('ra.action.confirm')}
                  </Button>
                  <Button
                    onClick={() => void call('/discard', { id: resume.id }).then(() => setResume(null))}
                  >
                    {translate('baas.transfer.import_discard')}
                  </Button>
                </>
              }
            >
              {translate('baas.transfer.import_resume', {
                file: resume.fileName,
                done: resume.committed,
                total: resume.toWrite,
              })}
            </Alert>
          )}
          {!job && (
            <Button component="label" variant="outlined" disabled={!!busy}>
              {translate('baas.transfer.import_pick')}
              <input
                hidden
                type="file"
                accept=".csv,.tsv,.txt,.xlsx,.json,text/csv,text/plain,text/tab-separated-values,application/json,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                data-testid="import-file"
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  // The same file may be picked again after a refusal.
                  e.target.value = '';
                  if (file) void pick(file);
                }}
              />
            </Button>
          )}
          {refused && !job && (
            <Alert severity="error" sx={{ mt: 2 }} data-testid="import-error">
              {refused}
            </Alert>
          )}
          {busy === 'checking' && (
            <>
              <Typography sx={{ mt: 2 }}>{translate('baas.transfer.import_checking')}</Typography>
              <LinearProgress />
            </>
          )}
          {job && (
            <>
              {job.columnsText && (
                <Alert severity="warning" sx={{ mb: 2 }} data-testid="import-columns">
                  {job.columnsText}
                </Alert>
              )}
              <Typography data-testid="import-counts" sx={{ mb: 1 }}>
                {translate('baas.transfer.import_counts', { ...job.counts, total: job.total })}
              </Typography>
              {(busy === 'committing' || job.status !== 'ready') && (
                <>
                  <LinearProgress variant="determinate" value={progress} />
                  <Typography variant="body2" data-testid="import-progress">
                    {translate('baas.transfer.import_committing', {
                      done: Math.min(job.committed, job.toWrite),
                      total: job.toWrite,
                    })}
                  </Typography>
                </>
              )}
              {job.sample.length > 0 && (
                <>
                  <Typography variant="subtitle2" sx={{ mt: 2 }}>
                    {translate('baas.transfer.import_sample')}
                  </Typography>
                  <Table size="small" data-testid="import-sample">
                    <HeadRow keys={['row', 'action', 'changes']} />
                    <TableBody>
                      {job.sample.map((s) => (
                        <TableRow key={s.row}>
                          <TableCell>{s.row}</TableCell>
                          <TableCell>
                            {translate(`baas.transfer.action_${s.action}`, { _: s.action })}
                          </TableCell>
                          <TableCell sx={{ overflowWrap: 'anywhere' }}>
                            {changesText(label, s.before, s.after).map((line) => (
                              <div key={line}>{line}</div>
                            ))}
                          </TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </>
              )}
              {job.rejects.length > 0 && (
                <>
                  <Table size="small" sx={{ mt: 2 }} data-testid="import-rejects">
                    <HeadRow keys={['row', 'field', 'reason']} />
                    <TableBody>
                      {job.rejects.map((r, i) => (
                        <TableRow key={i}>
                          <TableCell>{r.row}</TableCell>
                          <TableCell>{r.field}</TableCell>
                          <TableCell>{r.reason}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                  <Button
                    sx={{ mt: 1 }}
                    onClick={() => void downloadRejects(job.id)}
                    data-testid="import-report"
                  >
                    {translate('baas.transfer.import_rejects')}
                  </Button>
                </>
              )}
            </>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={!!busy}>
            {translate('baas.transfer.close')}
          </Button>
          {job && job.status !== 'done' && (
            <Button
              variant="contained"
              disabled={!!busy || job.toWrite === 0}
              onClick={() => void commit(job)}
              data-testid="import-commit"
            >
              {job.toWrite === 0
                ? translate('baas.transfer.import_nothing')
                : translate('baas.transfer.import_commit', { smart_count: job.toWrite - job.committed })}
            </Button>
          )}
        </DialogActions>
      </Dialog>
    </>
  );
}
