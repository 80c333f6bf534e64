/**
 * The real server as a child process (the production bundle the run built, or `tsx server/server.ts`), for
 * the browser tests, the crash test and the benchmarks: a free loopback port, a DATA_DIR, known passwords,
 * and a wait until it answers. Also how the tests run the server's other commands (`commandArgs`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

/** Node's flags to run `entry`: tsx's loader for TypeScript (`.ts`), none for JavaScript (the bundle). */
export function loaderArgs(entry: string): string[] {
  return entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
}

/** The commands of the server bundle (scripts/build-server.ts), as scripts/run-built.mjs names them. */
export type BuiltCommand =
  | 'server'
  | 'import'
  | 'admin'
  | 'backup'
  | 'restore'
  | 'uploads-migrate'
  | 'ledger-verify'
  | 'ledger-verify-proof';

/**
 * The module that runs command `name` in the tests, absolute:
 * - when the run built the server bundle (`PREBUILT_SERVER_ENTRY`, its `server.mjs`: scripts/test-all.sh),
 *   the bundle's `<name>.mjs` beside it: the file `npm start` and `npm run <name>` run
 *   (scripts/run-built.mjs), plain JavaScript. A start takes about half the CPU of the sources through tsx
 *   (the server: 2.1 against 3.8 CPU-s; `ledger-verify`: 0.4 against 1.4);
 * - else the sources (`server/server.ts`, `scripts/<name>.ts`), for a developer running one file after an
 *   edit, without a build.
 */
export function commandEntry(name: BuiltCommand): string {
  const built = process.env.PREBUILT_SERVER_ENTRY;
  if (built) return join(dirname(built), `${name}.mjs`);
  return join(ROOT, name === 'server' ? 'server/server.ts' : `scripts/${name}.ts`);
}

/** `node`'s arguments to run command `name` with `args`: `commandEntry`, through tsx's loader when it is a source. */
export function commandArgs(name: BuiltCommand, args: string[] = []): string[] {
  const entry = commandEntry(name);
  return [...loaderArgs(entry), entry, ...args];
}

export interface ServerProcess {
  proc: ChildProcess;
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Sends `signal` (default SIGTERM) and resolves once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface ServerOptions {
  dataDir: string;
  /** Port to listen on; a free one when omitted. */
  port?: number;
  /** Extra environment (PORT, HOST and DATA_DIR are set from the options). */
  env?: Record<string, string>;
  /** How long to wait for the first answer, ms (default 120 s). */
  timeoutMs?: number;
  /** The project tree to run the server from (default: this repository, ROOT). */
  root?: string;
  /**
   * The module to run, absolute: a `.ts` file runs through tsx's loader, a bundle (`.mjs`,
   * scripts/build-server.ts) as it is, as `npm start` runs it. Default: `commandEntry('server')` in this
   * repository, `<root>/server/server.ts` in another tree (a copy with other schemas).
   */
  entry?: string;
}

/**
 * Starts the server and resolves once `GET /` answers below 500 (the console, or the 404 envelope when
 * no console is built). Defaults: LOG_LEVEL warn, SEED 0, no console; `env` overrides them.
 * @throws with the process output when it exits or does not answer in time (the process is then killed)
 */
export async function startServerProcess(opts: ServerOptions): Promise<ServerProcess> {
  const port = opts.port ?? (await freePort());
  let output = '';
  // `node --import tsx`, not the tsx CLI: the CLI runs the server in a child of its own, so a SIGKILL
  // (the crash test) would leave that child running.
  const root = opts.root ?? ROOT;
  const entry = opts.entry ?? (root === ROOT ? commandEntry('server') : join(root, 'server/server.ts'));
  const proc = spawn(process.execPath, [...loaderArgs(entry), entry], {
    cwd: root,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      SEED: '0',
      CONSOLE_DIR: join(opts.dataDir, 'no-console'),
      ...opts.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: opts.dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d) => (output += d));
  proc.stderr!.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const server: ServerProcess = {
    proc,
    port,
    url,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill(signal);
      await exited;
    },
  };
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${url}/`)).status < 500) return server;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await server.stop('SIGKILL');
  throw new Error(`server did not answer ${url} within ${opts.timeoutMs ?? 120_000} ms:\n${output}`);
}
