/**
 * A console button's call to the server: `const { busy, run } = useServerAction();` then
 * `run(async () => { await call(); notify(success); })`. `busy` is true while the call runs (the button
 * disables itself); after it succeeds the page's data is refreshed (react-admin `refresh`); when it
 * throws, its message (the server's, already in the console's language: dataProvider/httpClient.ts) is
 * shown as an error notification. `run` resolves once the call is over, whatever its outcome.
 * `run(call, { refresh: false })` skips the refresh (a call that leaves the page, say).
 */
import { useState } from 'react';
import { useNotify, useRefresh } from 'react-admin';

/** `busy` and `run` (see the module doc). */
export function useServerAction(): {
  busy: boolean;
  run: (call: () => Promise<void>, options?: { refresh?: boolean }) => Promise<void>;
} {
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  const run = async (call: () => Promise<void>, options: { refresh?: boolean } = {}) => {
    setBusy(true);
    try {
      await call();
      if (options.refresh !== false) refresh();
    } catch (err) {
      // notify translates its message: `_` shows the text itself when it is no translation key.
      const message = (err as Error).message;
      notify(message, { type: 'error', messageArgs: { _: message } });
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}
