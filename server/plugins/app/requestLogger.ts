/**
 * The request loggers (`request.log`, `reply.log`), made on first use: Fastify's `childLoggerFactory`
 * (passed in server/app.ts). Fastify asks for a child of the app's logger (pino) carrying the request id
 * for every request, and pino builds it at once (bindings serialised, levels and serializers copied),
 * while at the production levels (`LOG_LEVEL=info` or `warn`, request logging off, server/server.ts) a
 * call that succeeds never logs. Here the child is a small stand-in that makes the real pino child on
 * the first log call at an enabled level (or any other use: `child`, `bindings`, setting `level`), so
 * what is written, and with which bindings, is unchanged (issue 10's detail profile).
 */
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, LevelWithSilent, Logger } from 'pino';

type LogCall = (...args: unknown[]) => void;

/** pino's log methods, most severe first. */
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const satisfies readonly Level[];

/** A request's logger: forwards to a pino child of `parent` made on first real use. */
class LazyChildLogger {
  #child?: Logger;

  constructor(
    private readonly parent: Logger,
    private readonly childBindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  /** The pino child (made now when it was not yet). */
  private real(): Logger {
    return (this.#child ??= this.parent.child(this.childBindings, this.options));
  }

  /** A log method: nothing is made for a level that would not be written. */
  private log(level: Level, args: unknown[]): void {
    const child = this.#child;
    if (child) return (child[level] as LogCall)(...args);
    // A level of its own (a route's `logLevel`) decides on the child; else the parent's level does.
    if (this.options.level === undefined && !this.parent.isLevelEnabled(level)) return;
    (this.real()[level] as LogCall)(...args);
  }

  get level(): LevelWithSilent | string {
    return this.#child?.level ?? this.options.level ?? this.parent.level;
  }
  set level(value: LevelWithSilent | string) {
    this.real().level = value;
  }
  isLevelEnabled(level: string): boolean {
    return this.#child?.isLevelEnabled(level) ?? this.real().isLevelEnabled(level);
  }
  declare fatal: LogCall;
  declare error: LogCall;
  declare warn: LogCall;
  declare info: LogCall;
  declare debug: LogCall;
  declare trace: LogCall;
  static {
    // One forwarding method a pino level, on the prototype (nothing made per request).
    for (const level of LEVELS)
      this.prototype[level] = function (this: LazyChildLogger, ...args: unknown[]) {
        this.log(level, args);
      };
  }
  silent(): void {}
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }
  bindings(): Bindings {
    return this.real().bindings();
  }
}

/**
 * Fastify's `childLoggerFactory`: the request's logger, a {@link LazyChildLogger} of `logger` with
 * `bindings` (the request id) and `options` (a route's own level or serializers); for a logger that
 * cannot say whether a level is enabled (not pino), its own child as Fastify's default factory makes.
 */
export const lazyChildLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) =>
  // A logger without levels to ask (Fastify's no-op logger when logging is off, a custom logger): its own child.
  typeof (logger as Partial<Logger>).isLevelEnabled === 'function'
    ? (new LazyChildLogger(logger as unknown as Logger, bindings, options) as unknown as FastifyBaseLogger)
    : logger.child(bindings, options);
