/**
 * The list's Export button, for every generated list (replacing react-admin's default exporter, which
 * fetched one page of at most 1,000 records): a menu of CSV and XLSX; the chosen file of EVERY record the
 * list's filters match, in its sort, comes from the server (src/dataProvider/exportFile.ts), with a
 * progress dialog (rows of `X-Total-Count` for CSV, megabytes for XLSX) while it downloads.
 */
import { useState } from 'react';
import { useListContext, useNotify, useResourceContext, useTranslate } from 'react-admin';
import {
  Button,
  Dialog,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Menu,
  MenuItem,
  Typography,
} from '@mui/material';
import DownloadIcon from '@mui/icons-material/GetApp';
import {
  downloadExport,
  exportUrl,
  type ExportFormat,
  type ExportProgress,
} from '../dataProvider/exportFile';

/** The Export menu button of the current list. */
export function ExportMenu() {
  const resource = useResourceContext()!;
  const { filterValues, sort, total } = useListContext();
  const translate = useTranslate();
  const notify = useNotify();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const name = translate(`resources.${resource}.name`, { smart_count: 2 });

  const run = async (format: ExportFormat) => {
    setAnchor(null);
    setProgress({ total: total ?? 0, bytes: 0, rows: 0 });
    try {
      const url = exportUrl(resource, { filter: filterValues, sort }, format);
      const rows = await downloadExport(url, format, setProgress);
      notify('baas.transfer.export_done', { type: 'success', messageArgs: { total: rows } });
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    } finally {
      setProgress(null);
    }
  };

  const percent =
    progress && progress.rows !== undefined && progress.total
      ? (100 * progress.rows) / progress.total
      : undefined;
  return (
    <>
      <Button
        size="small"
        startIcon={<DownloadIcon />}
        onClick={(e) => setAnchor(e.currentTarget)}
        disabled={!!progress || total === 0}
        aria-haspopup="menu"
        data-testid="export-button"
      >
        {translate('baas.transfer.export')}
      </Button>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => void run('csv')} data-testid="export-csv">
          {translate('baas.transfer.export_csv')}
        </MenuItem>
        <MenuItem onClick={() => void run('xlsx')} data-testid="export-xlsx">
          {translate('baas.transfer.export_xlsx')}
        </MenuItem>
      </Menu>
      <Dialog open={!!progress} fullWidth maxWidth="xs" data-testid="export-progress">
        <DialogTitle>{translate('baas.transfer.exporting', { name })}</DialogTitle>
        <DialogContent>
          <LinearProgress
            variant={percent === undefined ? 'indeterminate' : 'determinate'}
            value={percent ?? 0}
            sx={{ mb: 1 }}
          />
          <Typography variant="body2" color="text.secondary">
            {progress?.rows !== undefined
              ? translate('baas.transfer.export_progress', { done: progress.rows, total: progress.total })
              : translate('baas.transfer.export_bytes', {
                  mb: ((progress?.bytes ?? 0) / 1e6).toFixed(1),
                  total: progress?.total ?? 0,
                })}
          </Typography>
        </DialogContent>
      </Dialog>
    </>
  );
}
