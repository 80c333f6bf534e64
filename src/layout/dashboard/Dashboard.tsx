/**
 * The dashboard (`/dashboard`, pinned tab), with real figures from the API:
 * - admin: the registry, `GET /artmanager/dashboard/stats` → `{ authors, artworks, authorsOnChain,
 *   artworksOnChain, categories: [{name, count}], recent: [artwork], createdPerDay: [{day, count}] }`:
 *   counts, share of artworks on chain, artworks added per day (recharts), categories, recent additions;
 * - every account (the blockchain section is open to `user` and `admin`): the ledger,
 *   `GET /baas-api/dashboard` → `{ channels, blocks, transactions, chaincodes, perHour: [{time, count}] }`.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Grid,
  LinearProgress,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { httpClient } from '../../dataProvider/httpClient';
import { formatDateTime, numberSuffix, relativeTime, type FormatLocale } from '../../utils/format';
import { useShell } from '../ShellContext';

interface RegistryStats {
  authors: number;
  artworks: number;
  authorsOnChain: number;
  artworksOnChain: number;
  categories: { name: string | null; count: number }[];
  recent: {
    id: number;
    artWorkName: string;
    author?: unknown;
    authorName?: string;
    createTime: string;
    isBlock: number;
  }[];
  createdPerDay: { day: string; count: number }[];
}

interface LedgerStats {
  channels: number;
  blocks: number;
  transactions: number;
  chaincodes: number;
  perHour: { time: string; count: number }[];
}

async function getData<T>(url: string): Promise<T> {
  return (await httpClient<T>(url)).json.data;
}

/** The dashboard page. */
export function Dashboard() {
  const translate = useTranslate();
  const { info, roles } = useShell();
  const isAdmin = roles?.includes('admin') ?? false;
  return (
    <Box data-testid="dashboard">
      <Typography component="h1" variant="h6" sx={{ mb: 2, fontWeight: 600 }}>
        {translate('shell.dashboard.welcome', { name: info?.name ?? '' })}
      </Typography>
      {isAdmin && <RegistryPanel />}
      <LedgerPanel />
    </Box>
  );
}

function Figure({
  label,
  value,
  extra,
  testId,
}: {
  label: string;
  value: ReactNode;
  extra?: ReactNode;
  testId: string;
}) {
  return (
    <Card elevation={0} sx={{ height: '100%' }} data-testid={testId}>
      <CardContent>
        <Typography sx={{ color: 'rgba(0,0,0,.45)', fontSize: 14, fontWeight: 600 }}>{label}</Typography>
        <Typography
          sx={{ fontSize: 28, fontWeight: 700, color: '#303133', mt: 0.5 }}
          className="figure-value"
        >
          {value}
        </Typography>
        {extra}
      </CardContent>
    </Card>
  );
}

const int = (n: number, locale: string) => n.toLocaleString(locale === 'zh' ? 'zh-CN' : 'en-US');

function RegistryPanel() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const q = useQuery({
    queryKey: ['shell', 'dashboard', 'registry'],
    queryFn: () => getData<RegistryStats>('/artmanager/dashboard/stats'),
  });
  if (q.isError) return <Alert severity="error">{(q.error as Error).message}</Alert>;
  const s = q.data;
  const share = s && s.artworks > 0 ? (s.artworksOnChain / s.artworks) * 100 : 0;
  const placeholder = <Skeleton width={80} />;
  return (
    <Grid container spacing={2} sx={{ mb: 2 }}>
      <Grid size={{ xs: 6, lg: 3 }}>
        <Figure
          testId="figure-authors"
          label={translate('shell.dashboard.authors')}
          value={s ? int(s.authors, locale) : placeholder}
        />
      </Grid>
      <Grid size={{ xs: 6, lg: 3 }}>
        <Figure
          testId="figure-artworks"
          label={translate('shell.dashboard.artworks')}
          value={s ? int(s.artworks, locale) : placeholder}
        />
      </Grid>
      <Grid size={{ xs: 6, lg: 3 }}>
        <Figure
          testId="figure-onchain"
          label={translate('shell.dashboard.onChainShare')}
          value={s ? `${share.toFixed(1)}%` : placeholder}
          extra={
            s && (
              <>
                <LinearProgress
                  variant="determinate"
                  value={share}
                  sx={{ mt: 1, height: 6, borderRadius: 3 }}
                />
                <Typography sx={{ fontSize: 12, color: '#909399', mt: 0.5 }}>
                  {int(s.artworksOnChain, locale)} / {int(s.artworks, locale)}
                </Typography>
              </>
            )
          }
        />
      </Grid>
      <Grid size={{ xs: 6, lg: 3 }}>
        <Figure
          testId="figure-authors-onchain"
          label={translate('shell.dashboard.authorsOnChain')}
          value={s ? int(s.authorsOnChain, locale) : placeholder}
        />
      </Grid>
      <Grid size={{ xs: 12, lg: 8 }}>
        <Card elevation={0}>
          <CardContent>
            <Typography sx={{ fontWeight: 600, mb: 1 }}>{translate('shell.dashboard.perDay')}</Typography>
            <Box sx={{ height: 260 }}>
              {s && s.createdPerDay.length > 0 ? (
                <ResponsiveContainer width="100%" height="100%">
                  <BarChart data={s.createdPerDay} margin={{ top: 8, right: 16, left: 0, bottom: 0 }}>
                    <CartesianGrid strokeDasharray="3 3" stroke="#ebeef5" />
                    <XAxis dataKey="day" tick={{ fontSize: 12 }} />
                    <YAxis
                      tick={{ fontSize: 12 }}
                      tickFormatter={(v: number) => numberSuffix(v)}
                      allowDecimals={false}
                    />
                    <Tooltip />
                    <Bar
                      dataKey="count"
                      name={translate('shell.dashboard.count')}
                      fill="#409EFF"
                      maxBarSize={48}
                    />
                  </BarChart>
                </ResponsiveContainer>
              ) : (
                <Typography sx={{ color: '#909399' }}>
                  {s ? translate('shell.dashboard.noData') : <Skeleton />}
                </Typography>
              )}
            </Box>
          </CardContent>
        </Card>
      </Grid>
      <Grid size={{ xs: 12, lg: 4 }}>
        <Card elevation={0} sx={{ height: '100%' }}>
          <CardContent>
            <Typography sx={{ fontWeight: 600, mb: 1 }}>{translate('shell.dashboard.categories')}</Typography>
            <Box sx={{ height: 260 }}>
              {s && (
                <ResponsiveContainer width="100%" height="100%">
                  <BarChart
                    layout="vertical"
                    data={s.categories.slice(0, 8).map((c) => ({
                      name: c.name ?? translate('shell.dashboard.uncategorised'),
                      count: c.count,
                    }))}
                    margin={{ top: 0, right: 16, left: 8, bottom: 0 }}
                  >
                    <XAxis
                      type="number"
                      tick={{ fontSize: 12 }}
                      tickFormatter={(v: number) => numberSuffix(v)}
                    />
                    <YAxis type="category" dataKey="name" width={110} tick={{ fontSize: 12 }} />
                    <Tooltip />
                    <Bar dataKey="count" name={translate('shell.dashboard.count')} fill="#36a3f7" />
                  </BarChart>
                </ResponsiveContainer>
              )}
            </Box>
          </CardContent>
        </Card>
      </Grid>
      <Grid size={12}>
        <Card elevation={0}>
          <CardContent>
            <Typography sx={{ fontWeight: 600, mb: 1 }}>{translate('shell.dashboard.recent')}</Typography>
            <Box sx={{ overflowX: 'auto' }}>
              <Table size="small" data-testid="recent-additions">
                <TableHead>
                  <TableRow>
                    <TableCell>{translate('shell.dashboard.columns.name')}</TableCell>
                    <TableCell>{translate('shell.dashboard.columns.author')}</TableCell>
                    <TableCell>{translate('shell.dashboard.columns.created')}</TableCell>
                    <TableCell>{translate('shell.dashboard.columns.onChain')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {(s?.recent ?? []).map((a) => (
                    <TableRow key={a.id} hover>
                      <TableCell>
                        <Box
                          component={Link}
                          to={`/artworks/${a.id}/show`}
                          sx={{
                            color: 'primary.main',
                            textDecoration: 'none',
                            '&:hover': { textDecoration: 'underline' },
                          }}
                        >
                          {a.artWorkName}
                        </Box>
                      </TableCell>
                      <TableCell>{authorName(a)}</TableCell>
                      <TableCell title={formatDateTime(a.createTime)}>
                        {relativeTime(a.createTime, Date.now(), locale as FormatLocale)}
                      </TableCell>
                      <TableCell>
                        <Chip
                          size="small"
                          color={a.isBlock ? 'success' : 'default'}
                          label={translate(a.isBlock ? 'shell.dashboard.yes' : 'shell.dashboard.no')}
                        />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Box>
          </CardContent>
        </Card>
      </Grid>
    </Grid>
  );
}

function authorName(a: RegistryStats['recent'][number]): string {
  if (a.authorName) return a.authorName;
  const au = a.author as { authorName?: string } | string | number | undefined;
  if (au && typeof au === 'object') return au.authorName ?? '';
  return au === undefined ? '' : String(au);
}

function LedgerPanel() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const q = useQuery({
    queryKey: ['shell', 'dashboard', 'ledger'],
    queryFn: () => getData<LedgerStats>('/baas-api/dashboard'),
  });
  const s = q.data;
  const placeholder = <Skeleton width={60} />;
  return (
    <Card elevation={0} data-testid="ledger-panel">
      <CardContent>
        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            mb: 1,
            gap: 2,
            flexWrap: 'wrap',
          }}
        >
          <Box>
            <Typography sx={{ fontWeight: 600 }}>{translate('shell.route.baas')}</Typography>
            <Typography sx={{ color: '#909399', fontSize: 13 }}>
              {translate('shell.dashboard.userIntro')}
            </Typography>
          </Box>
          <Button variant="contained" component={Link} to="/baas/fabric">
            {translate('shell.dashboard.openLedger')}
          </Button>
        </Box>
        {q.isError ? (
          <Alert severity="error">{(q.error as Error).message}</Alert>
        ) : (
          <Grid container spacing={2}>
            {(['channels', 'blocks', 'transactions', 'chaincodes'] as const).map((k) => (
              <Grid key={k} size={{ xs: 6, md: 3 }}>
                <Typography sx={{ color: 'rgba(0,0,0,.45)', fontSize: 13 }}>
                  {translate(
                    `shell.route.${k === 'blocks' ? 'block' : k === 'transactions' ? 'transaction' : k === 'chaincodes' ? 'chainCodes' : 'channels'}`,
                  )}
                </Typography>
                <Typography sx={{ fontSize: 22, fontWeight: 700 }} data-testid={`ledger-${k}`}>
                  {s ? int(s[k], locale) : placeholder}
                </Typography>
              </Grid>
            ))}
            {s && s.perHour.length > 0 && (
              <Grid size={12}>
                <Box sx={{ height: 160 }}>
                  <ResponsiveContainer width="100%" height="100%">
                    <BarChart data={s.perHour.map((b) => ({ ...b, label: b.time.slice(11, 16) || b.time }))}>
                      <CartesianGrid strokeDasharray="3 3" stroke="#ebeef5" />
                      <XAxis dataKey="label" tick={{ fontSize: 11 }} />
                      <YAxis tick={{ fontSize: 11 }} allowDecimals={false} />
                      <Tooltip />
                      <Bar dataKey="count" name={translate('shell.route.transaction')} fill="#40c9c6" />
                    </BarChart>
                  </ResponsiveContainer>
                </Box>
              </Grid>
            )}
          </Grid>
        )}
      </CardContent>
    </Card>
  );
}
