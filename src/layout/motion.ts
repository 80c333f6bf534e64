/**
 * Reduced motion: the system setting "reduce motion" (`prefers-reduced-motion: reduce`, Media Queries
 * Level 5) and the MUI theme options of a console that honours it (WCAG 2.1 SC 2.3.3). Used by the
 * console's theme (./theme.ts) and the public verification page (src/public/PublicApp.tsx); a module of
 * its own so that the public page's chunk does not take react-admin's theme with it.
 */
import type { ThemeOptions } from '@mui/material/styles';

/** The media query of the system setting "reduce motion" (Media Queries Level 5). */
export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/** True when the browser asks for reduced motion ({@link REDUCED_MOTION_QUERY}); false outside a browser. */
export function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && Boolean(window.matchMedia?.(REDUCED_MOTION_QUERY).matches);
}

/**
 * The theme options of a console that does not move, for users whose system asks for reduced motion
 * (WCAG 2.1 SC 2.3.3 "Animation from Interactions"): MUI's transitions (menus, dialogs, drawers, collapses,
 * hovers) take no time and set no CSS transition, buttons have no ripple, skeletons do not pulse, and
 * no element of the page keeps a CSS transition of its own (the sidebar's slide). The progress
 * indicators still turn: they are how a page says it is loading. Charts (recharts 3, `isAnimationActive`
 * `auto`) follow the same system setting by themselves.
 */
export function stillMotion(): ThemeOptions {
  const none = 0;
  return {
    transitions: {
      create: () => 'none',
      getAutoHeightDuration: () => none,
      duration: {
        shortest: none,
        shorter: none,
        short: none,
        standard: none,
        complex: none,
        enteringScreen: none,
        leavingScreen: none,
      },
    },
    components: {
      MuiButtonBase: { defaultProps: { disableRipple: true } },
      MuiSkeleton: { defaultProps: { animation: false } },
      MuiCssBaseline: {
        styleOverrides: {
          '*, *::before, *::after': { transition: 'none !important', scrollBehavior: 'auto !important' },
        },
      },
    },
  };
}
