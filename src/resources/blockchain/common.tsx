/**
 * Small pieces of the blockchain screens: a shortened hash with a copy button (also as a DataTable
 * column), a labelled field row, loading/error states, the lists' pagination and empty row, and
 * `useBaas` (react-query over the `/baas-api` calls that are no resource: dashboard, search, verify).
 * Channels, blocks, transactions and chaincodes are react-admin resources read through the
 * dataProvider (schemas/{channel,block,transaction,chaincode}.schema.json `x-endpoints`).
 */
import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import {
  Alert,
  Box,
  Card,
  CardContent,
  IconButton,
  LinearProgress,
  Link,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import CheckIcon from '@mui/icons-material/Check';
import { Pagination, useRecordContext, useTranslate } from 'react-admin';
import { baasGet } from './api';

/** react-query over `GET /baas-api<path>`; the key includes the parameters. */
export function useBaas<T>(path: string, params: Record<string, unknown> = {}, enabled = true) {
  return useQuery({ queryKey: ['baas-api', path, params], queryFn: () => baasGet<T>(path, params), enabled });
}

/** The section's DataTables: column headers on one line (narrow screens scroll the table instead). */
export const tableSx = { '& thead th': { whiteSpace: 'nowrap' } } as const;

/** The lists' pagination: react-admin's, with the section's page sizes. */
export const ListPagination = () => <Pagination rowsPerPageOptions={[10, 20, 50, 100]} />;

/** What a DataTable shows instead of rows when the page is empty ("No rows"). */
export function NoRows() {
  const translate = useTranslate();
  return (
    <Table size="small">
      <TableBody>
        <TableRow>
          <TableCell>{translate('blockchain.empty')}</TableCell>
        </TableRow>
      </TableBody>
    </Table>
  );
}

/** The record's hash field `source` (of the record context) as a `Hash`. */
export function HashField({ source, full = false }: { source: string; full?: boolean }) {
  const record = useRecordContext<Record<string, string>>();
  return <Hash value={record?.[source] ?? ''} full={full} />;
}

/** First 8 and last 6 characters of a hash ("" shown as —). */
export function shortHash(hash: string): string {
  if (!hash) return '—';
  return hash.length <= 18 ? hash : `${hash.slice(0, 8)}…${hash.slice(-6)}`;
}

/** A hash shortened (full value in the tooltip) with a copy button; `full` shows it whole. */
export function Hash({ value, full = false }: { value: string; full?: boolean }) {
  const translate = useTranslate();
  const [copied, setCopied] = useState(false);
  if (!value) return <span>—</span>;
  const copy = async () => {
    await navigator.clipboard?.writeText(value).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <Stack
      direction="row"
      alignItems="center"
      spacing={0.5}
      component="span"
      sx={{ display: 'inline-flex', maxWidth: '100%' }}
    >
      <Tooltip title={value}>
        <Typography
          component="span"
          variant="body2"
          sx={{ fontFamily: 'monospace', ...(full ? { wordBreak: 'break-all' } : { whiteSpace: 'nowrap' }) }}
          data-hash={value}
        >
          {full ? value : shortHash(value)}
        </Typography>
      </Tooltip>
      <Tooltip title={translate(copied ? 'blockchain.action.copied' : 'blockchain.action.copy')}>
        <IconButton size="small" onClick={copy} aria-label={translate('blockchain.action.copy')}>
          {copied ? <CheckIcon fontSize="inherit" /> : <ContentCopyIcon fontSize="inherit" />}
        </IconButton>
      </Tooltip>
    </Stack>
  );
}

/** Label / value rows of a detail card. */
export function Fields({ rows }: { rows: [string, ReactNode][] }) {
  const translate = useTranslate();
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: '200px 1fr' },
        columnGap: 2,
        rowGap: 1,
        m: 0,
      }}
    >
      {rows.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {translate(label)}
          </Typography>
          <Box component="dd" sx={{ m: 0, minWidth: 0 }}>
            {value}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

/**
 * A plain, horizontally scrolling table of a dashboard card: a header row of translation keys
 * (`columns`) and the `<tr>` rows given as children.
 */
export function PlainTable({ columns, children }: { columns: readonly string[]; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Box
        component="table"
        sx={{
          borderCollapse: 'collapse',
          width: '100%',
          '& td, & th': {
            p: 1,
            textAlign: 'left',
            borderBottom: '1px solid',
            borderColor: 'divider',
            whiteSpace: 'nowrap',
          },
        }}
      >
        <thead>
          <tr>
            {columns.map((key) => (
              <th key={key}>{translate(key)}</th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </Box>
    </Box>
  );
}

/** A list column's render: the row's name, linking to its show page `<base>/<id>`. */
export const nameLink =
  (base: string) =>
  (row: { id: number | string; name: string }): ReactNode => (
    <Link component={RouterLink} to={`${base}/${row.id}`}>
      {row.name}
    </Link>
  );

/** Progress bar while loading, the error's message on failure, else the children. */
export function Loaded({
  loading,
  error,
  children,
}: {
  loading: boolean;
  error: unknown;
  children: ReactNode;
}) {
  if (loading) return <LinearProgress sx={{ my: 2 }} />;
  if (error) return <Alert severity="error">{(error as Error).message}</Alert>;
  return <>{children}</>;
}

/**
 * An outlined card titled `translate(title)` (an h6) whose body is `children` once `query` has loaded
 * (`Loaded`: progress bar while pending, the error's message on failure); `testId` is its data-testid.
 */
export function LoadedCard({
  testId,
  title,
  query,
  children,
}: {
  testId: string;
  title: string;
  query: { isPending: boolean; error: unknown };
  children: ReactNode;
}) {
  const translate = useTranslate();
  return (
    <Card variant="outlined" data-testid={testId}>
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate(title)}
        </Typography>
        <Loaded loading={query.isPending} error={query.error}>
          {children}
        </Loaded>
      </CardContent>
    </Card>
  );
}
