/**
 * The shell's MUI theme factory: react-admin's default theme with the chosen theme colour as primary
 * and a density for the global size. Sizes (element-ui's `default | medium | small | mini`) map to
 * font size, spacing unit and MUI's component `size`/`dense` props, so the whole UI changes density.
 * With the system setting "reduce motion" (`prefers-reduced-motion: reduce`, WCAG 2.1 SC 2.3.3), the
 * console does not animate: ./motion.ts `stillMotion`.
 */
import { createTheme, type Theme } from '@mui/material/styles';
import { defaultTheme } from 'react-admin';
import type { Size } from '../shell/preferences';
import { prefersReducedMotion, stillMotion } from './motion';

/** Layout measures of the element-admin shell, in px. */
export const SHELL = {
  sidebarWidth: 210,
  sidebarCollapsedWidth: 54,
  navbarHeight: 50,
  tagsViewHeight: 34,
  mobileBreakpoint: 992,
  sidebarBg: '#304156',
  sidebarSubBg: '#1f2d3d',
  sidebarHover: '#263445',
  sidebarText: '#bfcbd9',
} as const;

const DENSITY: Record<
  Size,
  { fontSize: number; spacing: number; control: 'medium' | 'small'; dense: boolean }
> = {
  default: { fontSize: 15, spacing: 9, control: 'medium', dense: false },
  medium: { fontSize: 14, spacing: 8, control: 'medium', dense: false },
  small: { fontSize: 13, spacing: 6, control: 'small', dense: true },
  mini: { fontSize: 12, spacing: 4, control: 'small', dense: true },
};

/**
 * Builds the console's theme for a theme colour (`#RRGGBB`) and a global size; `reducedMotion` (default:
 * the browser's {@link prefersReducedMotion}) adds {@link stillMotion}.
 */
export function createShellTheme(options: { color: string; size: Size; reducedMotion?: boolean }): Theme {
  const d = DENSITY[options.size];
  const still = (options.reducedMotion ?? prefersReducedMotion()) ? stillMotion() : undefined;
  const sized = { defaultProps: { size: d.control } };
  return createTheme({
    ...defaultTheme,
    palette: {
      ...defaultTheme.palette,
      primary: { main: options.color },
      background: { default: '#f0f2f5' },
    },
    spacing: d.spacing,
    typography: {
      ...defaultTheme.typography,
      fontSize: d.fontSize,
      fontFamily:
        '"Helvetica Neue", Helvetica, "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", Arial, sans-serif',
    },
    components: {
      ...defaultTheme.components,
      MuiButton: { defaultProps: { size: d.control } },
      MuiIconButton: sized,
      MuiTextField: { defaultProps: { size: d.control, variant: 'filled', margin: 'dense' } },
      MuiFormControl: { defaultProps: { size: d.control, margin: 'dense' } },
      MuiInputBase: sized,
      MuiChip: sized,
      MuiCheckbox: sized,
      MuiRadio: sized,
      MuiSwitch: sized,
      MuiTable: { defaultProps: { size: d.control } },
      MuiList: { defaultProps: { dense: d.dense } },
      MuiMenuItem: { defaultProps: { dense: d.dense } },
      MuiToolbar: { defaultProps: { variant: d.dense ? 'dense' : 'regular' } },
      ...still?.components,
    },
    ...(still ? { transitions: still.transitions } : {}),
  });
}
