/**
 * The dashboard (`/dashboard`, pinned tab), with real figures from the API:
 * - admin: the registry, `GET /artmanager/dashboard/stats` (server/routes/artmanager/dashboard):
 *   counts, share of artworks on chain, and charts over real dimensions: acquisitions per year (Tate's
 *   acquisition year), works per category, records on chain over time (running totals), accounts per role
 *   (each role by its display name in the console's language, `resources.accounts.enums.roles.*`);
 *   the recent additions;
 * - every account (the blockchain section is open to `user` and `admin`): the ledger,
 *   `GET /baas-api/dashboard` → `{ channels, blocks, transactions, chaincodes, perHour: [{time, count}] }`,
 *   with transactions per hour.
 * The charts (recharts) are a lazy chunk (./charts.tsx): the figures show first. Every chart has a title
 * and takes the theme's primary colour.
 */
import type { ComponentType, ReactNode } from 'react';
import { Link } from 'react-router';
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
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { httpClient } from '../../dataProvider/httpClient';
import { lazyComponent } from '../../shell/lazy';
import { formatDateTime, relativeTime, type FormatLocale } from '../../utils/format';
import { useShell } from '../ShellContext';
import { UnreadCard } from '../../resources/medicine/UnreadBadge';
import { categoryLabel } from '../../i18n/categories';
import { TranslatedTable } from '../TranslatedTableHead';

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
  acquisitionsPerYear: { year: number; count: number }[];
  acquisitionYearUnknown: number;
  onChainPerDay: {
    day: string;
    authors: number;
    artworks: number;
    authorsTotal: number;
    artworksTotal: number;
  }[];
  accountsPerRole: { role: string; count: number }[];
}

const charts = () => import('./charts');
/** Chart `name` of ./charts, loaded with the dashboard's first chart (a skeleton until then). */
const lazyChart = <P extends object>(pick: (m: Awaited<ReturnType<typeof charts>>) => ComponentType<P>) =>
  lazyComponent(() => charts().then(pick), <Skeleton variant="rectangular" height="100%" />);
const AcquisitionsChart = lazyChart((m) => m.AcquisitionsChart);
const CategoriesChart = lazyChart((m) => m.CategoriesChart);
const OnChainChart = lazyChart((m) => m.OnChainChart);
const RolesChart = lazyChart((m) => m.RolesChart);
const PerHourChart = lazyChart((m) => m.PerHourChart);

/**
 * A titled card holding one chart, `height` px tall, in a grid cell `lg` columns wide on large screens:
 * a skeleton while `items` (the chart's data) is loading, the "no data" line when it is empty, else
 * `chart()`.
 */
function ChartCard({
  title,
  subtitle,
  testId,
  lg,
  height = 260,
  items,
  chart,
}: {
  title: string;
  subtitle?: string;
  testId: string;
  lg: number;
  height?: number;
  items: readonly unknown[] | undefined;
  chart: () => ReactNode;
}) {
  const translate = useTranslate();
  return (
    <Grid size={{ xs: 12, lg }}>
      <Card elevation={0} sx={{ height: '100%' }} data-testid={testId}>
        <CardContent>
          <Typography component="h2" sx={{ fontWeight: 600, fontSize: 16 }}>
            {title}
          </Typography>
          {subtitle && <Typography sx={{ color: 'text.secondary', fontSize: 12 }}>{subtitle}</Typography>}
          <Box sx={{ height, mt: 1, minWidth: 0 }}>
            {items && items.length > 0 ? (
              chart()
            ) : (
              <Typography sx={{ color: 'text.secondary' }}>
                {items ? translate('shell.dashboard.noData') : <Skeleton />}
              </Typography>
            )}
          </Box>
        </CardContent>
      </Card>
    </Grid>
  );
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
      {/* The ledger figures are the blockchain section's (roles admin and user), not a company's. */}
      {(isAdmin || roles?.includes('user')) && <LedgerPanel />}
      {!isAdmin && roles?.includes('company') && <UnreadCard />}
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
  /** A role's display name in the console's language (the account schema's `x-enumLabels`), else its name. */
  const roleLabel = (role: string) => translate(`resources.accounts.enums.roles.${role}`, { _: role });
  const q = useQuery({
    queryKey: ['shell', 'dashboard', 'registry'],
    queryFn: () => getData<RegistryStats>('/artmanager/dashboard/stats'),
  });
  if (q.isError) return <Alert severity="error">{(q.error as Error).message}</Alert>;
  const s = q.data;
  const share = s && s.artworks > 0 ? (s.artworksOnChain / s.artworks) * 100 : 0;
  const placeholder = <Skeleton width={80} />;
  /** The four figures: test id, label key, value (once loaded), and what shows under the value. */
  const figures: { testId: string; label: string; value?: ReactNode; extra?: ReactNode }[] = [
    { testId: 'figure-authors', label: 'shell.dashboard.authors', value: s && int(s.authors, locale) },
    { testId: 'figure-artworks', label: 'shell.dashboard.artworks', value: s && int(s.artworks, locale) },
    {
      testId: 'figure-onchain',
      label: 'shell.dashboard.onChainShare',
      value: `${share.toFixed(1)}%`,
      extra: s && (
        <>
          <LinearProgress variant="determinate" value={share} sx={{ mt: 1, height: 6, borderRadius: 3 }} />
          <Typography sx={{ fontSize: 12, color: '#909399', mt: 0.5 }}>
            {int(s.artworksOnChain, locale)} / {int(s.artworks, locale)}
          </Typography>
        </>
      ),
    },
    {
      testId: 'figure-authors-onchain',
      label: 'shell.dashboard.authorsOnChain',
      value: s && int(s.authorsOnChain, locale),
    },
  ];
  return (
    <Grid container spacing={2} sx={{ mb: 2 }}>
      {figures.map((f) => (
        <Grid key={f.testId} size={{ xs: 6, lg: 3 }}>
          <Figure
            testId={f.testId}
            label={translate(f.label)}
            value={s ? f.value : placeholder}
            extra={f.extra}
          />
        </Grid>
      ))}
      <ChartCard
        testId="chart-acquisitions"
        lg={8}
        title={translate('shell.dashboard.acquisitions')}
        subtitle={
          s
            ? translate('shell.dashboard.acquisitionsNote', { count: int(s.acquisitionYearUnknown, locale) })
            : undefined
        }
        items={s?.acquisitionsPerYear}
        chart={() => (
          <AcquisitionsChart data={s!.acquisitionsPerYear} label={translate('shell.dashboard.acquired')} />
        )}
      />
      <ChartCard
        testId="chart-categories"
        lg={4}
        title={translate('shell.dashboard.categories')}
        items={s?.categories}
        chart={() => (
          <CategoriesChart
            data={s!.categories.map((c) => ({
              name:
                c.name == null ? translate('shell.dashboard.uncategorised') : categoryLabel(c.name, locale),
              count: c.count,
            }))}
            label={translate('shell.dashboard.count')}
          />
        )}
      />
      <ChartCard
        testId="chart-onchain"
        lg={8}
        title={translate('shell.dashboard.onChainProgress')}
        items={s?.onChainPerDay}
        chart={() => (
          <OnChainChart
            data={s!.onChainPerDay}
            labels={{
              authors: translate('shell.dashboard.onChainAuthors'),
              artworks: translate('shell.dashboard.onChainArtworks'),
            }}
          />
        )}
      />
      <ChartCard
        testId="chart-roles"
        lg={4}
        title={translate('shell.dashboard.accountsPerRole')}
        items={s?.accountsPerRole}
        chart={() => (
          <RolesChart
            data={s!.accountsPerRole.map(({ role, count }) => ({ role: roleLabel(role), count }))}
            label={translate('shell.dashboard.accounts')}
          />
        )}
      />
      <Grid size={12}>
        <Card elevation={0}>
          <CardContent>
            <Typography sx={{ fontWeight: 600, mb: 1 }}>{translate('shell.dashboard.recent')}</Typography>
            <TranslatedTable
              testId="recent-additions"
              sx={{ minWidth: 560 }}
              columns={[
                'shell.dashboard.columns.name',
                'shell.dashboard.columns.author',
                'shell.dashboard.columns.created',
                'shell.dashboard.columns.onChain',
              ]}
            >
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
            </TranslatedTable>
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
              <Grid size={12} data-testid="chart-perhour">
                <Typography component="h2" sx={{ fontWeight: 600, fontSize: 14 }}>
                  {translate('shell.dashboard.perHour')}
                </Typography>
                <Box sx={{ height: 160, mt: 1, minWidth: 0 }}>
                  <PerHourChart data={s.perHour} label={translate('shell.dashboard.transactions')} />
                </Box>
              </Grid>
            )}
          </Grid>
        )}
      </CardContent>
    </Card>
  );
}
