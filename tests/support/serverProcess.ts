/**
 * The real server as a child process (`tsx server/server.ts`, or the production bundle), for the browser tests, the crash test and
 * the benchmarks: a free loopback port, a DATA_DIR, known passwords, and a wait until it answers.
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
  /** The project tree to run `server/server.ts` from (default: this repository, ROOT). */
  root?: string;
  /**
   * The module to run, absolute: a `.ts` file runs through tsx's loader (default `<root>/server/server.ts`),
   * a bundle (`.mjs`, scripts/build-server.ts) as it is, as `npm start` runs it.
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
  const entry = opts.entry ?? join(root, 'server/server.ts');
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
