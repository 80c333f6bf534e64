/**
 * `ChaincodeList` (/baas/chainCode): the `chaincodes` resource (name, version, channel, status,
 * function, code hash, upload time); `user` and admins upload Go source (POST /baas-api/chaincode/upload,
 * multipart).
 * `ChaincodeShow` (/baas/chainCode/:id): one chaincode (getOne): every field, the code, and the lifecycle
 * installed → approved → committed with the transaction of each step; only admins move it to the next
 * step (the server's rule, docs/api.md "Chaincode and the user role").
 * Reads go through the dataProvider (schemas/chaincode.schema.json); upload and lifecycle steps are
 * actions, not react-admin verbs.
 */
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Link,
  MenuItem,
  Stack,
  Step,
  StepLabel,
  Stepper,
  TextField,
  Typography,
} from '@mui/material';
import {
  DataTable,
  ListBase,
  Title,
  useNotify,
  usePermissions,
  useRefresh,
  useShowContext,
  useTranslate,
} from 'react-admin';
import { apiPost, type ChaincodeDetail, type ChaincodeRow } from './api';
import { NumericIdShow } from './Channels';
import { Fields, nameLink, Hash, HashField, ListPagination, Loaded, NoRows, tableSx } from './common';
import { LedgerAlarms } from './LedgerAlarms';

const STEPS = ['installed', 'approved', 'committed'] as const;
const STATUS_COLOR = { installed: 'default', approved: 'info', committed: 'success' } as const;

function useIsAdmin(): boolean {
  const { permissions } = usePermissions<string[]>();
  return Array.isArray(permissions) && permissions.includes('admin');
}

/** The upload form's text fields, in order (labels `blockchain.field.<key>`). */
const TEXT_FIELDS: { key: string & keyof UploadFields; required?: boolean; placeholder?: string }[] = [
  { key: 'name', required: true },
  { key: 'version', required: true },
  { key: 'channel' },
  { key: 'initArgs', placeholder: '["init","a","100"]' },
  { key: 'args', placeholder: 'a, b' },
  { key: 'policy', placeholder: "OR('Org1MSP.peer')" },
  { key: 'function' },
];

/** The fields of POST /baas-api/chaincode/upload besides the file. */
interface UploadFields {
  name: string;
  version: string;
  channel: string;
  initArgs: string;
  args: string;
  policy: string;
  function: string;
  functionType: string;
}

function UploadDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [file, setFile] = useState<File | null>(null);
  const [fields, setFields] = useState<UploadFields>({
    name: '',
    version: '1.0',
    channel: 'artchannel',
    initArgs: '',
    args: '',
    policy: '',
    function: '',
    functionType: 'invoke',
  });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof fields) => (e: { target: { value: string } }) =>
    setFields({ ...fields, [k]: e.target.value });
  const submit = async () => {
    if (!file) return setError(translate('blockchain.upload.noFile'));
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', file, file.name);
    setBusy(true);
    setError(null);
    try {
      const cc = await apiPost<ChaincodeDetail>('/baas-api/chaincode/upload', form);
      notify('blockchain.upload.done', {
        type: 'success',
        messageArgs: { name: cc.name, version: cc.version },
      });
      refresh();
      onClose();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{translate('blockchain.action.upload')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Alert severity="info">{translate('blockchain.upload.hint')}</Alert>
          {error && <Alert severity="error">{error}</Alert>}
          <Button variant="outlined" component="label">
            {file ? file.name : translate('blockchain.field.file')}
            <input
              hidden
              type="file"
              accept=".go,text/x-go"
              data-testid="chaincode-file"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          </Button>
          {TEXT_FIELDS.map(({ key, required, placeholder }) => (
            <TextField
              key={key}
              size="small"
              required={required}
              label={translate(`blockchain.field.${key}`)}
              value={fields[key]}
              onChange={set(key)}
              placeholder={placeholder}
            />
          ))}
          <TextField
            size="small"
            select
            label={translate('blockchain.field.functionType')}
            value={fields.functionType}
            onChange={set('functionType')}
          >
            <MenuItem value="invoke">{translate('blockchain.functionType.invoke')}</MenuItem>
            <MenuItem value="query">{translate('blockchain.functionType.query')}</MenuItem>
          </TextField>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('blockchain.action.cancel')}</Button>
        <Button variant="contained" onClick={submit} disabled={busy}>
          {translate('blockchain.action.upload')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function ChaincodeList() {
  const translate = useTranslate();
  // Installing is open to every role of the section (user, admin): the server's gate.
  const [open, setOpen] = useState(false);
  return (
    <Box sx={{ p: 2 }}>
      <LedgerAlarms />
      <Title title={translate('blockchain.title.chaincodes')} />
      <Stack spacing={2}>
        <Box>
          <Button variant="contained" onClick={() => setOpen(true)}>
            {translate('blockchain.action.upload')}
          </Button>
          <UploadDialog open={open} onClose={() => setOpen(false)} />
        </Box>
        <ListBase resource="chaincodes" perPage={20} disableSyncWithLocation storeKey={false}>
          <Card variant="outlined" sx={{ overflowX: 'auto' }}>
            <DataTable<ChaincodeRow>
              bulkActionButtons={false}
              sx={tableSx}
              rowClick={false}
              empty={<NoRows />}
            >
              <DataTable.Col source="name" disableSort render={nameLink('/baas/chainCode')} />
              <DataTable.Col source="version" disableSort />
              <DataTable.Col source="channel" disableSort />
              <DataTable.Col source="status" disableSort render={(c) => <StatusChip status={c.status} />} />
              <DataTable.Col source="function" disableSort render={(c) => c.function || '—'} />
              <DataTable.Col
                source="functionType"
                disableSort
                render={(c) => translate(`blockchain.functionType.${c.functionType}`)}
              />
              <DataTable.Col source="codeHash" disableSort field={HashField} />
              <DataTable.Col source="createTime" disableSort cellSx={() => ({ whiteSpace: 'nowrap' })} />
            </DataTable>
            <ListPagination />
          </Card>
        </ListBase>
      </Stack>
    </Box>
  );
}

function StatusChip({ status }: { status: ChaincodeRow['status'] }) {
  const translate = useTranslate();
  return (
    <Chip size="small" color={STATUS_COLOR[status]} label={translate(`blockchain.lifecycle.${status}`)} />
  );
}

export function ChaincodeShow() {
  return <NumericIdShow resource="chaincodes" View={ChaincodeView} />;
}

function ChaincodeView({ id }: { id: number }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const isAdmin = useIsAdmin();
  const { record, isPending, error } = useShowContext<ChaincodeDetail>();
  // react-admin seeds getOne's cache with the row of a chaincodes list (no code, no history): wait for
  // the chaincode itself.
  const cc = Array.isArray(record?.history) ? record : undefined;
  const [busy, setBusy] = useState(false);
  const next = cc?.status === 'installed' ? 'approve' : cc?.status === 'approved' ? 'commit' : null;
  const advance = async () => {
    if (!next) return;
    setBusy(true);
    try {
      const updated = await apiPost<ChaincodeDetail>(`/baas-api/chaincode/${next}`, { id });
      notify('blockchain.upload.stepDone', {
        type: 'success',
        messageArgs: { status: translate(`blockchain.lifecycle.${updated.status}`) },
      });
      refresh();
    } catch (err) {
      notify((err as Error).message, { type: 'error', messageArgs: { _: (err as Error).message } });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ p: 2 }}>
      <LedgerAlarms />
      <Title
        title={
          cc
            ? translate('blockchain.title.chaincode', { name: cc.name, version: cc.version })
            : translate('blockchain.title.chaincodes')
        }
      />
      <Loaded loading={isPending || (!cc && !error)} error={error}>
        {cc && (
          <Stack spacing={2}>
            <Card variant="outlined">
              <CardContent>
                <Stepper activeStep={STEPS.indexOf(cc.status) + 1} alternativeLabel sx={{ mb: 2 }}>
                  {STEPS.map((s) => {
                    const h = cc.history.find((x) => x.status === s);
                    return (
                      <Step key={s} completed={!!h}>
                        <StepLabel
                          optional={
                            h && (
                              <Link
                                component={RouterLink}
                                to={`/baas/transaction/${h.txId}`}
                                variant="caption"
                                sx={{ fontFamily: 'monospace' }}
                              >
                                {h.txId.slice(0, 10)}… {h.time}
                              </Link>
                            )
                          }
                        >
                          {translate(`blockchain.lifecycle.${s}`)}
                        </StepLabel>
                      </Step>
                    );
                  })}
                </Stepper>
                {isAdmin && next && (
                  <Button variant="contained" onClick={advance} disabled={busy} sx={{ mb: 2 }}>
                    {translate(`blockchain.action.${next}`)}
                  </Button>
                )}
                <Fields
                  rows={[
                    ['blockchain.field.name', cc.name],
                    ['blockchain.field.version', cc.version],
                    ['blockchain.field.channel', cc.channel],
                    ['blockchain.field.status', <StatusChip status={cc.status} />],
                    ['blockchain.field.function', cc.function || '—'],
                    [
                      'blockchain.field.functionType',
                      translate(`blockchain.functionType.${cc.functionType}`),
                    ],
                    ['blockchain.field.initArgs', <code>{JSON.stringify(cc.initArgs)}</code>],
                    ['blockchain.field.args', <code>{JSON.stringify(cc.args)}</code>],
                    ['blockchain.field.policy', cc.policy || '—'],
                    ['blockchain.field.file', cc.fileName],
                    ['blockchain.field.codeHash', <Hash value={cc.codeHash} full />],
                    ['blockchain.field.uploadedBy', cc.createdBy],
                    ['blockchain.field.createdAt', `${cc.createTime} UTC`],
                    ['blockchain.field.updateTime', `${cc.updateTime} UTC`],
                  ]}
                />
                <Link component={RouterLink} to="/baas/chainCode" sx={{ display: 'inline-block', mt: 2 }}>
                  {translate('blockchain.action.allChaincodes')}
                </Link>
              </CardContent>
            </Card>
            <Card variant="outlined">
              <CardContent>
                <Typography variant="subtitle2" gutterBottom>
                  {translate('blockchain.field.code')}
                </Typography>
                <Box
                  component="pre"
                  sx={{
                    m: 0,
                    p: 1.5,
                    bgcolor: 'action.hover',
                    borderRadius: 1,
                    overflow: 'auto',
                    maxHeight: 480,
                    fontSize: 13,
                  }}
                >
                  {cc.code}
                </Box>
              </CardContent>
            </Card>
          </Stack>
        )}
      </Loaded>
    </Box>
  );
}
