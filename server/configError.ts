/**
 * Configuration refused at start: `ConfigError` marks an error that is the operator's setting, not a bug
 * (a malformed variable, a key directory inside DATA_DIR in production, a LEDGER_ORIGIN that differs from
 * the stored log's). server.ts prints such an error as one line and exits with status 1; any other error
 * keeps its stack trace.
 */

/** A refused configuration: its message names the setting and what to do. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Whether `err` is a {@link ConfigError} (also when it is the `cause` of a wrapping error). */
export function isConfigError(err: unknown): err is Error {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++)
    if (e instanceof ConfigError || e.name === 'ConfigError') return true;
  return false;
}

/** The one line the server prints when it refuses its configuration. */
export function configErrorLine(err: Error): string {
  let e: unknown = err;
  while (e instanceof Error && !(e instanceof ConfigError) && e.name !== 'ConfigError') e = e.cause;
  const message = (e instanceof Error ? e.message : err.message).replace(/\s*\n\s*/g, ' ');
  return `baas-admin: configuration refused: ${message}`;
}

/**
 * Ends the process for a startup failure: a {@link ConfigError} as one line on stderr and exit status 1;
 * any other error is thrown again (Node prints its stack).
 */
export function exitOnConfigError(err: unknown): never {
  if (!isConfigError(err)) throw err;
  process.stderr.write(`${configErrorLine(err)}\n`);
  process.exit(1);
}
