/**
 * The error-log badge of the top bar and its dialog (vue-element-admin `components/ErrorLog`): shown
 * once an error has been recorded (production builds record them, `src/shell/errorLog.ts`); the
 * dialog lists message, info, URL and time of each.
 */
import { useState, useSyncExternalStore } from 'react';
import {
  Badge,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Table,
  TableBody,
  TableCell,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import BugReportIcon from '@mui/icons-material/BugReport';
import { useTranslate } from 'react-admin';
import { clearErrorLogs, getErrorLogs, subscribeErrorLogs } from '../shell/errorLog';
import { formatDateTime } from '../utils/format';
import { TranslatedTableHead } from './TranslatedTableHead';

/** The badge (nothing while the log is empty) and its dialog. */
export function ErrorLogButton() {
  const translate = useTranslate();
  const logs = useSyncExternalStore(subscribeErrorLogs, getErrorLogs, getErrorLogs);
  const [open, setOpen] = useState(false);
  if (logs.length === 0) return null;
  return (
    <>
      <Tooltip title={translate('shell.errorLog.badge', { smart_count: logs.length })}>
        <IconButton
          aria-label={translate('shell.navbar.errorLog')}
          data-testid="error-log"
          onClick={() => setOpen(true)}
        >
          <Badge badgeContent={logs.length} color="error" max={99}>
            <BugReportIcon sx={{ color: '#f56c6c' }} />
          </Badge>
        </IconButton>
      </Tooltip>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="lg" fullWidth>
        <DialogTitle>{translate('shell.errorLog.title')}</DialogTitle>
        <DialogContent>
          {logs.length === 0 ? (
            <Typography>{translate('shell.errorLog.empty')}</Typography>
          ) : (
            <Table size="small">
              <TranslatedTableHead
                columns={[
                  'shell.errorLog.message',
                  'shell.errorLog.info',
                  'shell.errorLog.url',
                  'shell.errorLog.time',
                ]}
              />
              <TableBody>
                {[...logs].reverse().map((e, i) => (
                  <TableRow key={`${e.time}-${i}`}>
                    <TableCell sx={{ color: '#f56c6c', fontWeight: 600 }}>{e.message}</TableCell>
                    <TableCell>
                      <Typography
                        component="pre"
                        sx={{ fontSize: 12, whiteSpace: 'pre-wrap', maxHeight: 160, overflow: 'auto', m: 0 }}
                      >
                        {e.info}
                        {e.stack ? `\n${e.stack}` : ''}
                      </Typography>
                    </TableCell>
                    <TableCell sx={{ wordBreak: 'break-all' }}>{e.url}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.time)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </DialogContent>
        <DialogActions>
          <Button
            color="error"
            onClick={() => {
              clearErrorLogs();
              setOpen(false);
            }}
          >
            {translate('shell.errorLog.clear')}
          </Button>
          <Button onClick={() => setOpen(false)}>{translate('shell.errorLog.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
