/**
 * The error log (vue-element-admin `store/modules/errorLog.js` + `utils/error-log.js`): in production
 * builds a global handler records each uncaught error with its info, URL and time; the top bar shows
 * a badge that opens the list. At most `MAX_ENTRIES` entries are kept (oldest dropped).
 */

/** One recorded error. `time` is ISO 8601. */
export interface ErrorLogEntry {
  message: string;
  stack?: string;
  /** Where it came from: `window.onerror`, `unhandledrejection`, or a React component stack. */
  info: string;
  url: string;
  time: string;
}

export const MAX_ENTRIES = 50;

let entries: ErrorLogEntry[] = [];
const listeners = new Set<() => void>();

/** Records an error (any thrown value). */
export function addErrorLog(error: unknown, info: string, url = globalThis.location?.href ?? ''): void {
  const e =
    error instanceof Error ? error : new Error(typeof error === 'string' ? error : JSON.stringify(error));
  const entry: ErrorLogEntry = {
    message: e.message,
    stack: e.stack,
    info,
    url,
    time: new Date().toISOString(),
  };
  entries = [...entries, entry].slice(-MAX_ENTRIES);
  listeners.forEach((l) => l());
}

/** The recorded errors, oldest first (stable array between changes). */
export function getErrorLogs(): ErrorLogEntry[] {
  return entries;
}

/** Forgets every entry. */
export function clearErrorLogs(): void {
  entries = [];
  listeners.forEach((l) => l());
}

/** Subscribes to changes; returns the unsubscribe function. */
export function subscribeErrorLogs(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

let installed = false;

/**
 * Installs the global handlers (`error`, `unhandledrejection`) when `enabled` (the console passes
 * `import.meta.env.PROD`, as the product logs errors only in production builds). Idempotent.
 */
export function installErrorLog(enabled: boolean, target: Window = window): void {
  if (!enabled || installed) return;
  installed = true;
  target.addEventListener('error', (ev) => {
    addErrorLog(ev.error ?? ev.message, `window.onerror ${ev.filename ?? ''}:${ev.lineno ?? ''}`.trim());
  });
  target.addEventListener('unhandledrejection', (ev) => addErrorLog(ev.reason, 'unhandledrejection'));
}
