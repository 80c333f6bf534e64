/**
 * Medicine > Tracking (`/medicine/tacking`, the product's path): the history of a company's records —
 * who changed what, when — from the audit trail (`GET /medicine-api/company/tracking`: the company, its
 * notifications and its administrators' accounts). Pick the company (autocomplete over the companies
 * list's free text); the choice is kept in the address (`?id=`), so a page can link to it. Each entry:
 * time, account, call, the record written (resource label and id), the fields an update changed (their
 * labels in the console's language), and the digests before and after.
 * At 375 px the table scrolls sideways inside the page.
 */
import { useState } from 'react';
import {
  Alert,
  Autocomplete,
  Box,
  Card,
  CardContent,
  Pagination,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useGetList, useGetOne, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router';
import { MEDICINE_KEY, tracking } from './api';
import { TranslatedTableHead } from '../../layout/TranslatedTableHead';

const PAGE_SIZE = 20;

interface CompanyOption {
  id: number;
  companyName: string;
  creditCode: string;
}

const short = (digest: string | null) => (digest ? `${digest.slice(0, 8)}…` : '—');

function CompanyPicker({
  value,
  onChange,
}: {
  value?: CompanyOption;
  onChange: (c?: CompanyOption) => void;
}) {
  const translate = useTranslate();
  const [text, setText] = useState('');
  const { data = [], isPending } = useGetList<CompanyOption>('companies', {
    pagination: { page: 1, perPage: 20 },
    sort: { field: 'id', order: 'DESC' },
    filter: text.trim() ? { q: text.trim() } : {},
  });
  return (
    <Autocomplete
      sx={{ maxWidth: 480, mb: 2 }}
      options={data}
      loading={isPending}
      value={value ?? null}
      filterOptions={(x) => x}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      getOptionLabel={(c) => `${c.companyName} (${c.creditCode})`}
      onInputChange={(_e, v, reason) => reason === 'input' && setText(v)}
      onChange={(_e, c) => onChange(c ?? undefined)}
      renderInput={(params) => (
        <TextField
          {...params}
          label={translate('shell.medicine.pickCompany')}
          data-testid="tracking-company"
        />
      )}
    />
  );
}

export function Tracking() {
  const translate = useTranslate();
  const [params, setParams] = useSearchParams();
  const id = Number(params.get('id')) || undefined;
  const [page, setPage] = useState(1);
  const chosen = useGetOne<CompanyOption>('companies', { id: id! }, { enabled: !!id });
  const history = useQuery({
    queryKey: [MEDICINE_KEY, 'tracking', id, page],
    queryFn: () => tracking(id!, page, PAGE_SIZE),
    enabled: !!id,
  });
  const pages = Math.max(1, Math.ceil((history.data?.total ?? 0) / PAGE_SIZE));
  return (
    <Card elevation={0} data-testid="tracking">
      <CardContent>
        <Typography sx={{ color: 'text.secondary', mb: 2 }}>
          {translate('shell.medicine.trackingExplain')}
        </Typography>
        <CompanyPicker
          value={id ? chosen.data : undefined}
          onChange={(c) => {
            setPage(1);
            setParams(c ? { id: String(c.id) } : {});
          }}
        />
        {!id && (
          <Typography sx={{ color: 'text.secondary' }}>{translate('shell.medicine.pickHint')}</Typography>
        )}
        {history.isError && <Alert severity="error">{(history.error as Error).message}</Alert>}
        {id && history.isPending && <Skeleton variant="rectangular" height={160} />}
        {history.data && !history.data.list.length && (
          <Typography sx={{ color: 'text.secondary' }}>{translate('shell.medicine.noHistory')}</Typography>
        )}
        {!!history.data?.list.length && (
          <TableContainer sx={{ overflowX: 'auto' }}>
            <Table size="small" data-testid="tracking-table">
              <TranslatedTableHead
                columns={[
                  'resources.auditEntries.fields.time',
                  'resources.auditEntries.fields.account',
                  'resources.auditEntries.fields.call',
                  'shell.medicine.record',
                  'resources.auditEntries.fields.changed',
                  'resources.auditEntries.fields.before',
                  'resources.auditEntries.fields.after',
                ]}
              />
              <TableBody>
                {history.data.list.map((e) => (
                  <TableRow key={e.id} data-testid="tracking-row">
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{e.time}</TableCell>
                    <TableCell>{e.account}</TableCell>
                    <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{e.call}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      {translate(`resources.${e.resource}.name`, { smart_count: 1, _: e.resource })} #
                      {e.recordId}
                    </TableCell>
                    <TableCell data-testid="tracking-changed">
                      {e.changed
                        .map((f) => translate(`resources.${e.resource}.fields.${f}`, { _: f }))
                        .join(', ') || '—'}
                    </TableCell>
                    <TableCell sx={{ fontFamily: 'monospace' }}>
                      <Tooltip title={e.before ?? ''}>
                        <span>{short(e.before)}</span>
                      </Tooltip>
                    </TableCell>
                    <TableCell sx={{ fontFamily: 'monospace' }}>
                      <Tooltip title={e.after ?? ''}>
                        <span>{short(e.after)}</span>
                      </Tooltip>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        {pages > 1 && (
          <Box sx={{ mt: 2 }}>
            <Pagination count={pages} page={page} onChange={(_e, p) => setPage(p)} />
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
