/**
 * Route-level code splitting: `lazyComponent(() => import('./Screen').then((m) => m.Screen))` is a
 * component that loads its module on first render (React.lazy) behind its own Suspense boundary, so it
 * can be used anywhere a component goes (a `<Resource>` view, a shell route, an element in an override)
 * without a boundary above it. While the chunk loads it shows a small progress indicator. A failed load
 * throws into the nearest error boundary, as any render error does.
 *
 * `preload()` starts loading the code before the component renders (the console starts its layout and the
 * screen at the address with its own chunk, instead of one after the other: src/App.tsx); the render then
 * uses the same download. A failed preload is forgotten, so the render tries again.
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

/** A lazily loaded component (see `lazyComponent`). */
export interface LazyComponent<P extends object> {
  (props: P): ReactElement;
  /** Starts loading the component's code now; resolves when loaded (never rejects). */
  preload(): Promise<void>;
}

/** A component whose code is loaded by `load` on first render or `preload()` (cached afterwards). */
export function lazyComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
  fallback: ReactNode = <ChunkLoading />,
): LazyComponent<P> {
  let loading: Promise<ComponentType<P>> | undefined;
  const get = () =>
    (loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
  const Lazy = lazy(async () => ({ default: await get() }));
  function LazyComponent(props: P) {
    return (
      <Suspense fallback={fallback}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  LazyComponent.preload = () =>
    get().then(
      () => undefined,
      () => undefined,
    );
  return LazyComponent;
}
