/**
 * `BlockchainDashboard` (route /baas/fabric): cards for blocks, transactions, chaincodes and channels,
 * transactions per minute / per hour (recharts), the latest blocks of each channel, a search box and
 * a "verify the ledger" button (GET /baas-api/verify), in the manner of Hyperledger Explorer; the chains
 * table (GET /baas-api/chains: name, consensus, peer orgs, orderer and peer counts, TLS, status, version)
 * beside the channels. Channels
 * and their latest blocks are the `channels` and `blocks` resources (dataProvider); the figures and the
 * verification are calls of their own.
 */
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import {
  Alert,
  Box,
  Button,
  Card,
  CardActionArea,
  CardContent,
  Grid,
  Link,
  Stack,
  Tab,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { DataTable, ListBase, Title, useGetList, useTranslate } from 'react-admin';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { baasGet, type BlockRecord, type ChannelInfo, type DashboardData, type VerifyResult } from './api';
import { blockLink } from './Channels';
import { HashField, Loaded, LoadedCard, NoRows, PlainTable, useBaas, tableSx } from './common';
import { LedgerAlarms } from './LedgerAlarms';

function StatCard({ label, value, to, sub }: { label: string; value: number; to?: string; sub?: string }) {
  const body = (
    <CardContent>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h4" data-testid={`stat-${label}`}>
        {value.toLocaleString()}
      </Typography>
      {sub && (
        <Typography variant="caption" color="text.secondary">
          {sub}
        </Typography>
      )}
    </CardContent>
  );
  return (
    <Card variant="outlined">
      {to ? (
        <CardActionArea component={RouterLink} to={to}>
          {body}
        </CardActionArea>
      ) : (
        body
      )}
    </Card>
  );
}

/** A search box that opens /baas/search?q=. */
export function SearchBox({ initial = '' }: { initial?: string }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [q, setQ] = useState(initial);
  return (
    <Stack
      component="form"
      direction="row"
      spacing={1}
      onSubmit={(e) => {
        e.preventDefault();
        if (q.trim()) navigate(`/baas/search?q=${encodeURIComponent(q.trim())}`);
      }}
    >
      <TextField
        size="small"
        fullWidth
        value={q}
        onChange={(e) => setQ(e.target.value)}
        placeholder={translate('blockchain.search.placeholder')}
        inputProps={{ 'aria-label': translate('blockchain.search.placeholder') }}
      />
      <Button type="submit" variant="contained">
        {translate('blockchain.action.search')}
      </Button>
    </Stack>
  );
}

/** The 5 newest blocks of a channel (the `blocks` resource). */
function LatestBlocks({ channel }: { channel: ChannelInfo }) {
  return (
    <ListBase
      resource="blocks"
      filter={{ channelId: channel.id }}
      perPage={5}
      disableSyncWithLocation
      storeKey={false}
    >
      <Box sx={{ overflowX: 'auto' }}>
        <DataTable<BlockRecord> bulkActionButtons={false} sx={tableSx} rowClick={false} empty={<NoRows />}>
          <DataTable.Col source="number" disableSort render={blockLink} />
          <DataTable.NumberCol source="txCount" disableSort />
          <DataTable.Col source="blockHash" disableSort field={HashField} />
          <DataTable.Col source="createdAt" disableSort cellSx={() => ({ whiteSpace: 'nowrap' })} />
        </DataTable>
      </Box>
    </ListBase>
  );
}

/** A row of GET /baas-api/witnesses (server/routes/baas-api/witness.ts). */
interface WitnessRow {
  witness: string;
  url: string;
  channel: string;
  /** The size the witness last reported (entries). */
  size: number;
  cosignedSize: number;
  height: number;
  lag: number;
  refusals: number;
  errors: number;
  lastError: string | null;
  cosignedAt: string | null;
}

/**
 * Witnesses (GET /baas-api/witnesses): per configured witness and channel, the size it holds, how many
 * entries it lags behind the latest checkpoint, its refusals and errors (docs/witnesses.md section 11), and
 * the policy's quorum when one is set.
 */
function Witnesses() {
  const translate = useTranslate();
  const w = useBaas<{
    list: WitnessRow[];
    total: number;
    policy: { quorum: string; witnesses: string[] } | null;
  }>('/witnesses');
  return (
    <LoadedCard testId="witnesses" title="blockchain.witness.title" query={w}>
      {w.data?.policy && (
        <Typography variant="body2" color="text.secondary" data-testid="witness-policy">
          {translate('blockchain.witness.policy', {
            quorum: w.data.policy.quorum,
            n: w.data.policy.witnesses.length,
          })}
        </Typography>
      )}
      {w.data && w.data.list.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {translate('blockchain.witness.none')}
        </Typography>
      ) : (
        <PlainTable
          columns={[
            'blockchain.witness.name',
            'blockchain.field.channel',
            'blockchain.witness.size',
            'blockchain.witness.lag',
            'blockchain.witness.refusals',
            'blockchain.witness.cosignedAt',
            'blockchain.witness.lastError',
          ]}
        >
          {w.data?.list.map((r) => (
            <tr key={`${r.witness}:${r.channel}`} data-witness={r.witness}>
              <td title={r.url}>{r.witness}</td>
              <td>{r.channel}</td>
              <td>{r.size}</td>
              <td>{r.lag}</td>
              <td>{r.refusals + r.errors}</td>
              <td>{r.cosignedAt ? r.cosignedAt.replace('T', ' ').slice(0, 19) : '—'}</td>
              <td style={{ whiteSpace: 'normal' }}>{r.lastError ?? '—'}</td>
            </tr>
          ))}
        </PlainTable>
      )}
    </LoadedCard>
  );
}

/** A row of GET /baas-api/chains (server/routes/baas-api/chains.ts). */
interface ChainRow {
  name: string;
  consensus: string;
  peerOrgs: string[];
  ordererCount: number;
  peerCount: number;
  tls: boolean;
  status: string;
  version: string;
}

const CHAIN_COLUMNS = [
  'name',
  'consensus',
  'peerOrgs',
  'ordererCount',
  'peerCount',
  'tls',
  'status',
  'version',
] as const;

/** The chains this server runs (one embedded network), read from its configuration and ledger state. */
function Chains() {
  const translate = useTranslate();
  const c = useBaas<{ list: ChainRow[]; total: number }>('/chains');
  const value = (row: ChainRow, col: (typeof CHAIN_COLUMNS)[number]) => {
    const v = row[col];
    if (col === 'tls') return translate(v ? 'blockchain.chains.yes' : 'blockchain.chains.no');
    if (col === 'consensus' || col === 'status')
      return translate(`blockchain.chains.values.${String(v)}`, { _: String(v) });
    return Array.isArray(v) ? v.join(', ') : String(v);
  };
  return (
    <LoadedCard testId="chains" title="blockchain.chains.title" query={c}>
      <PlainTable columns={CHAIN_COLUMNS.map((col) => `blockchain.chains.${col}`)}>
        {c.data?.list.map((row) => (
          <tr key={row.name}>
            {CHAIN_COLUMNS.map((col) => (
              <td key={col} data-testid={`chain-${col}`}>
                {value(row, col)}
              </td>
            ))}
          </tr>
        ))}
      </PlainTable>
    </LoadedCard>
  );
}

export function BlockchainDashboard() {
  const theme = useTheme();
  const translate = useTranslate();
  const stats = useBaas<DashboardData>('/dashboard');
  const channels = useGetList<ChannelInfo>('channels', { pagination: { page: 1, perPage: 100 } });
  const [range, setRange] = useState<'minute' | 'hour'>('minute');
  const [verify, setVerify] = useState<{ running: boolean; result?: VerifyResult; error?: string }>({
    running: false,
  });
  const runVerify = async () => {
    setVerify({ running: true });
    try {
      setVerify({ running: false, result: await baasGet<VerifyResult>('/verify') });
    } catch (err) {
      setVerify({ running: false, error: (err as Error).message });
    }
  };
  const d = stats.data;
  const series = (range === 'minute' ? d?.perMinute : d?.perHour)?.map((b) => ({
    time: range === 'minute' ? b.time.slice(11) : b.time.slice(5).replace(' ', ' ') + ':00',
    count: b.count,
  }));
  return (
    <Box sx={{ p: 2 }}>
      <LedgerAlarms />
      <Title title={translate('blockchain.title.dashboard')} />
      <Stack spacing={2}>
        <SearchBox />
        <Loaded loading={stats.isPending} error={stats.error}>
          {d && (
            <Grid container spacing={2}>
              <Grid size={{ xs: 6, md: 3 }}>
                <StatCard
                  label={translate('blockchain.card.blocks')}
                  value={d.blocks}
                  to={channels.data?.[0] ? `/baas/channel/${channels.data[0].id}` : undefined}
                />
              </Grid>
              <Grid size={{ xs: 6, md: 3 }}>
                <StatCard
                  label={translate('blockchain.card.transactions')}
                  value={d.transactions}
                  sub={d.pending ? translate('blockchain.card.pending', { count: d.pending }) : undefined}
                />
              </Grid>
              {(
                [
                  ['chaincodes', '/baas/chainCode'],
                  ['channels', '/baas/channel'],
                ] as const
              ).map(([key, to]) => (
                <Grid key={key} size={{ xs: 6, md: 3 }}>
                  <StatCard label={translate(`blockchain.card.${key}`)} value={d[key]} to={to} />
                </Grid>
              ))}
            </Grid>
          )}
        </Loaded>
        <Card variant="outlined">
          <CardContent>
            <Stack
              direction={{ xs: 'column', sm: 'row' }}
              justifyContent="space-between"
              alignItems={{ xs: 'flex-start', sm: 'center' }}
            >
              <Typography variant="h6">{translate('blockchain.chart.title')}</Typography>
              <Tabs
                value={range}
                onChange={(_, v) => setRange(v)}
                variant="scrollable"
                allowScrollButtonsMobile
              >
                <Tab value="minute" label={translate('blockchain.chart.perMinute')} />
                <Tab value="hour" label={translate('blockchain.chart.perHour')} />
              </Tabs>
            </Stack>
            <Box sx={{ height: 240 }}>
              <ResponsiveContainer width="100%" height="100%">
                <BarChart data={series ?? []}>
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis dataKey="time" fontSize={11} minTickGap={16} />
                  <YAxis allowDecimals={false} fontSize={11} />
                  <Tooltip />
                  <Bar
                    dataKey="count"
                    name={translate('blockchain.chart.count')}
                    fill={theme.palette.primary.main}
                    isAnimationActive={false}
                  />
                </BarChart>
              </ResponsiveContainer>
            </Box>
          </CardContent>
        </Card>
        <Chains />
        {channels.data?.map((ch) => (
          <Card variant="outlined" key={ch.id}>
            <CardContent>
              <Stack direction="row" justifyContent="space-between" alignItems="center" sx={{ mb: 1 }}>
                <Typography variant="h6">
                  <Link component={RouterLink} to={`/baas/channel/${ch.id}`}>
                    {translate('blockchain.title.channel', { name: ch.name })}
                  </Link>
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {translate('blockchain.field.height')}: {ch.height}
                </Typography>
              </Stack>
              <LatestBlocks channel={ch} />
            </CardContent>
          </Card>
        ))}
        <Witnesses />
        <Stack direction="row" spacing={2} alignItems="center">
          <Button variant="outlined" onClick={runVerify} disabled={verify.running}>
            {translate('blockchain.action.verify')}
          </Button>
          {verify.running && (
            <Typography variant="body2">{translate('blockchain.verify.running')}</Typography>
          )}
        </Stack>
        {verify.result?.ok && <Alert severity="success">{verify.result.message}</Alert>}
        {verify.result && !verify.result.ok && (
          <Alert severity="error">
            {translate('blockchain.verify.broken', { message: verify.result.message })}
          </Alert>
        )}
        {verify.error && <Alert severity="error">{verify.error}</Alert>}
      </Stack>
    </Box>
  );
}
