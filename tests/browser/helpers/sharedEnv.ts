/**
 * The browser test files' shared set-up: `sharedEnv()` registers the file's `beforeAll` (startEnv, see
 * ./env.ts) and `afterAll` (stop) hooks and returns the environment as a `TestEnv` whose properties are
 * read from the started one, so a file writes `const env = sharedEnv();` instead of the two hooks.
 * Reading a property before `beforeAll` has run (at module level, say) throws.
 *
 * The `afterAll` hook is registered first, so with vitest's default stacked hook order it runs after
 * the file's own `afterAll` hooks (pages a file closes are closed before the browser).
 */
import { afterAll, beforeAll } from 'vitest';
import { startEnv, type TestEnv } from './env';

/** Starts the environment before the file's tests (`timeoutMs`: the hook's timeout, else the config's). */
export function sharedEnv(timeoutMs?: number): TestEnv {
  let started: TestEnv | undefined;
  beforeAll(async () => {
    started = await startEnv();
  }, timeoutMs);
  afterAll(async () => {
    await started?.stop();
  });
  return new Proxy({} as TestEnv, {
    get(_, key) {
      if (!started) throw new Error(`sharedEnv: env.${String(key)} read before the environment started`);
      return started[key as keyof TestEnv];
    },
  });
}
