/**
 * `ChannelList` (/baas/channel): name, block height, transactions, created.
 * `ChannelShow` (/baas/channel/:id): the channel's blocks, newest first, with server-side pagination
 * (GET /baas-api/blocks page/pageSize) and a time-range filter on block time (from/to, UTC):
 * number, tx count, data hash, block hash, previous hash (shortened, copyable), time.
 */
import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import {
  Box,
  Button,
  Card,
  CardContent,
  Link,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { Title, useTranslate } from 'react-admin';
import type { BlockInfo, ChannelInfo, Page } from './api';
import { Hash, Loaded, useBaas } from './common';

export function ChannelList() {
  const translate = useTranslate();
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(20);
  const q = useBaas<Page<ChannelInfo>>('/channels', { page: page + 1, pageSize });
  return (
    <Box sx={{ p: 2 }}>
      <Title title={translate('blockchain.title.channels')} />
      <Card variant="outlined">
        <Loaded loading={q.isPending} error={q.error}>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{translate('blockchain.field.name')}</TableCell>
                <TableCell align="right">{translate('blockchain.field.height')}</TableCell>
                <TableCell align="right">{translate('blockchain.field.txCount')}</TableCell>
                <TableCell>{translate('blockchain.field.createdAt')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {q.data?.list.map((c) => (
                <TableRow key={c.id} hover>
                  <TableCell>
                    <Link component={RouterLink} to={`/baas/channel/${c.id}`}>
                      {c.name}
                    </Link>
                  </TableCell>
                  <TableCell align="right">{c.height}</TableCell>
                  <TableCell align="right">{c.txCount}</TableCell>
                  <TableCell>{c.createdAt}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <Pager
            total={q.data?.total ?? 0}
            page={page}
            pageSize={pageSize}
            onPage={setPage}
            onPageSize={setPageSize}
          />
        </Loaded>
      </Card>
    </Box>
  );
}

/** MUI pagination with the section's labels. */
export function Pager(props: {
  total: number;
  page: number;
  pageSize: number;
  onPage: (p: number) => void;
  onPageSize: (n: number) => void;
}) {
  const translate = useTranslate();
  return (
    <TablePagination
      component="div"
      count={props.total}
      page={props.page}
      rowsPerPage={props.pageSize}
      rowsPerPageOptions={[10, 20, 50, 100]}
      onPageChange={(_, p) => props.onPage(p)}
      onRowsPerPageChange={(e) => {
        props.onPageSize(Number(e.target.value));
        props.onPage(0);
      }}
      labelRowsPerPage={translate('blockchain.rowsPerPage')}
      labelDisplayedRows={({ from, to, count }) => translate('blockchain.ofTotal', { from, to, count })}
    />
  );
}

/** The blocks table of a channel (used by ChannelShow). */
export function BlocksTable({ channelId }: { channelId: number }) {
  const translate = useTranslate();
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(20);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const q = useBaas<Page<BlockInfo>>('/blocks', { channelId, page: page + 1, pageSize, from, to });
  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ p: 2 }} alignItems="center">
        <TextField
          size="small"
          type="datetime-local"
          label={translate('blockchain.filter.from')}
          value={from}
          onChange={(e) => {
            setFrom(e.target.value);
            setPage(0);
          }}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 60, 'data-testid': 'blocks-from' } }}
        />
        <TextField
          size="small"
          type="datetime-local"
          label={translate('blockchain.filter.to')}
          value={to}
          onChange={(e) => {
            setTo(e.target.value);
            setPage(0);
          }}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 60, 'data-testid': 'blocks-to' } }}
        />
        {(from || to) && (
          <Button
            onClick={() => {
              setFrom('');
              setTo('');
              setPage(0);
            }}
          >
            {translate('blockchain.filter.clear')}
          </Button>
        )}
      </Stack>
      <Loaded loading={q.isPending} error={q.error}>
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" data-testid="blocks-table">
            <TableHead>
              <TableRow>
                <TableCell>{translate('blockchain.field.number')}</TableCell>
                <TableCell align="right">{translate('blockchain.field.txCount')}</TableCell>
                <TableCell>{translate('blockchain.field.dataHash')}</TableCell>
                <TableCell>{translate('blockchain.field.blockHash')}</TableCell>
                <TableCell>{translate('blockchain.field.previousHash')}</TableCell>
                <TableCell>{translate('blockchain.field.time')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {q.data?.list.length === 0 && (
                <TableRow>
                  <TableCell colSpan={6}>{translate('blockchain.empty')}</TableCell>
                </TableRow>
              )}
              {q.data?.list.map((b) => (
                <TableRow key={b.number} hover>
                  <TableCell>
                    <Link component={RouterLink} to={`/baas/block/${b.channelId}/${b.number}`}>
                      {b.number}
                    </Link>
                  </TableCell>
                  <TableCell align="right">{b.txCount}</TableCell>
                  <TableCell>
                    <Hash value={b.dataHash} />
                  </TableCell>
                  <TableCell>
                    <Hash value={b.blockHash} />
                  </TableCell>
                  <TableCell>
                    <Hash value={b.previousHash} />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{b.createdAt}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
        <Pager
          total={q.data?.total ?? 0}
          page={page}
          pageSize={pageSize}
          onPage={setPage}
          onPageSize={setPageSize}
        />
      </Loaded>
    </>
  );
}

export function ChannelShow() {
  const translate = useTranslate();
  const id = Number(useParams().id);
  const ch = useBaas<ChannelInfo>('/channel', { id });
  return (
    <Box sx={{ p: 2 }}>
      <Title title={translate('blockchain.title.channel', { name: ch.data?.name ?? id })} />
      <Loaded loading={ch.isPending} error={ch.error}>
        {ch.data && (
          <Stack spacing={2}>
            <Card variant="outlined">
              <CardContent>
                <Stack direction="row" spacing={4} flexWrap="wrap">
                  <Typography variant="h6">{ch.data.name}</Typography>
                  <Typography>
                    {translate('blockchain.field.height')}: <b>{ch.data.height}</b>
                  </Typography>
                  <Typography>
                    {translate('blockchain.field.txCount')}: <b>{ch.data.txCount}</b>
                  </Typography>
                  <Typography color="text.secondary">
                    {translate('blockchain.field.createdAt')}: {ch.data.createdAt}
                  </Typography>
                  <Link component={RouterLink} to="/baas/channel">
                    {translate('blockchain.action.allChannels')}
                  </Link>
                </Stack>
              </CardContent>
            </Card>
            <Card variant="outlined">
              <BlocksTable channelId={id} />
            </Card>
          </Stack>
        )}
      </Loaded>
    </Box>
  );
}
