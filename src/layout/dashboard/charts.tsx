/**
 * The dashboard's charts (recharts), in a chunk of their own: Dashboard.tsx loads this module lazily
 * (src/shell/lazy.tsx), so the figures show before the chart code has arrived. Every chart takes its
 * colours from the MUI theme (`palette.primary`, the settings drawer's theme colour) and re-renders when
 * the theme changes. Charts size themselves to their box (ResponsiveContainer) and keep their axis
 * labels inside it (margins and label widths sized for the longest label), so nothing is clipped at 375 px.
 */
import { useTheme, alpha } from '@mui/material/styles';
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type XAxisProps,
  type YAxisProps,
} from 'recharts';
import { numberSuffix } from '../../utils/format';
import { displayWidth } from '../../../common/displayWidth';

const tick = { fontSize: 12 };

/** The series colours of the current theme: primary and a lighter shade of it. */
export function useChartColors() {
  const theme = useTheme();
  return {
    primary: theme.palette.primary.main,
    secondary: alpha(theme.palette.primary.main, 0.45),
    grid: theme.palette.divider,
  };
}

/**
 * Vertical bars of `count`, one per `xKey` value (the count-per-bucket charts below): grid, tooltip and one
 * series named `label` in the theme's primary colour; `xAxis`, `yAxis` and `bar` are each chart's own props.
 */
function CountBars({
  data,
  xKey,
  label,
  xAxis,
  yAxis,
  bar,
}: {
  data: object[];
  xKey: string;
  label: string;
  xAxis: Omit<XAxisProps, 'dataKey'>;
  yAxis: YAxisProps;
  bar?: { maxBarSize?: number };
}) {
  const c = useChartColors();
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={data} margin={{ top: 8, right: 16, left: 0, bottom: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke={c.grid} vertical={false} />
        <XAxis dataKey={xKey} {...xAxis} />
        <YAxis allowDecimals={false} {...yAxis} />
        <Tooltip />
        <Bar dataKey="count" name={label} fill={c.primary} {...bar} />
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Works acquired per year (Tate's acquisition year), one bar per year. */
export function AcquisitionsChart({
  data,
  label,
}: {
  data: { year: number; count: number }[];
  label: string;
}) {
  return (
    <CountBars
      data={data}
      xKey="year"
      label={label}
      xAxis={{ tick, minTickGap: 16 }}
      yAxis={{ tick, tickFormatter: (v: number) => numberSuffix(v), width: 44 }}
    />
  );
}

/** Horizontal bars: works per category, largest first (at most `max` categories). */
export function CategoriesChart({
  data,
  label,
  max = 8,
}: {
  data: { name: string; count: number }[];
  label: string;
  max?: number;
}) {
  const c = useChartColors();
  const rows = data.slice(0, max);
  // About 6.5 px per column at the 12 px tick font; a Chinese character takes two columns.
  const labelWidth = Math.min(140, Math.max(48, ...rows.map((r) => displayWidth(r.name) * 6.5 + 10)));
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart layout="vertical" data={rows} margin={{ top: 0, right: 16, left: 0, bottom: 0 }}>
        <XAxis
          type="number"
          tick={tick}
          tickFormatter={(v: number) => numberSuffix(v)}
          allowDecimals={false}
        />
        <YAxis type="category" dataKey="name" width={labelWidth} tick={tick} interval={0} />
        <Tooltip />
        <Bar dataKey="count" name={label} fill={c.primary} />
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Running totals of authors and artworks on chain, per day. */
export function OnChainChart({
  data,
  labels,
}: {
  data: { day: string; authorsTotal: number; artworksTotal: number }[];
  labels: { authors: string; artworks: string };
}) {
  const c = useChartColors();
  return (
    <ResponsiveContainer width="100%" height="100%">
      <AreaChart data={data} margin={{ top: 8, right: 16, left: 0, bottom: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke={c.grid} vertical={false} />
        <XAxis dataKey="day" tick={tick} minTickGap={24} />
        <YAxis tick={tick} tickFormatter={(v: number) => numberSuffix(v)} allowDecimals={false} width={44} />
        <Tooltip />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Area
          type="stepAfter"
          dataKey="artworksTotal"
          name={labels.artworks}
          stroke={c.primary}
          fill={c.primary}
          fillOpacity={0.25}
        />
        <Area
          type="stepAfter"
          dataKey="authorsTotal"
          name={labels.authors}
          stroke={c.secondary}
          fill={c.secondary}
          fillOpacity={0.25}
        />
      </AreaChart>
    </ResponsiveContainer>
  );
}

/** Accounts per role, one bar per role (labels kept whole). */
export function RolesChart({ data, label }: { data: { role: string; count: number }[]; label: string }) {
  return (
    <CountBars
      data={data}
      xKey="role"
      label={label}
      xAxis={{ tick, interval: 0 }}
      yAxis={{ tick, width: 32 }}
      bar={{ maxBarSize: 56 }}
    />
  );
}

/** Transactions per hour (the ledger's `perHour` buckets), labelled HH:mm. */
export function PerHourChart({ data, label }: { data: { time: string; count: number }[]; label: string }) {
  return (
    <CountBars
      data={data.map((b) => ({ ...b, label: b.time.slice(11, 16) || b.time }))}
      xKey="label"
      label={label}
      xAxis={{ tick: { fontSize: 11 }, minTickGap: 8 }}
      yAxis={{ tick: { fontSize: 11 }, width: 36 }}
    />
  );
}
