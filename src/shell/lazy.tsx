/**
 * Route-level code splitting: `lazyComponent(() => import('./Screen').then((m) => m.Screen))` is a
 * component that loads its module on first render (React.lazy) behind its own Suspense boundary, so it
 * can be used anywhere a component goes (a `<Resource>` view, a shell route, an element in an override)
 * without a boundary above it. While the chunk loads it shows a small progress indicator. A failed load
 * throws into the nearest error boundary, as any render error does.
 */
import { lazy, Suspense, type ComponentType, type ReactElement, type ReactNode } from 'react';
import { Box, CircularProgress } from '@mui/material';

/** The placeholder shown while a split chunk loads. */
export function ChunkLoading() {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }} data-testid="chunk-loading">
      <CircularProgress size={28} />
    </Box>
  );
}

/** A component whose code is loaded by `load` on first render (cached afterwards). */
export function lazyComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
  fallback: ReactNode = <ChunkLoading />,
): (props: P) => ReactElement {
  const Lazy = lazy(async () => ({ default: await load() }));
  function LazyComponent(props: P) {
    return (
      <Suspense fallback={fallback}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return LazyComponent;
}
