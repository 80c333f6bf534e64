/**
 * Test helper: our witness (`server/witness/main.ts`, as `npm run witness`) as a process of its own on
 * its own port (docs/witnesses.md section 11.2), for the witness tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './serverProcess';

/**
 * Starts a witness named `name` (its state in `db`, an SQLite file) that accepts the log `logVkey`,
 * listening on 127.0.0.1:`port`; resolves its cosigner vkey and process once it printed them.
 * @throws Error with its output when it exits first
 */
export async function startWitness(opts: {
  port: number;
  name: string;
  db: string;
  logVkey: string;
}): Promise<{ vkey: string; proc: ChildProcess }> {
  const proc = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'server/witness/main.ts'),
      '--listen',
      `127.0.0.1:${opts.port}`,
      '--name',
      opts.name,
      '--db',
      opts.db,
      '--log',
      opts.logVkey,
    ],
    { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const vkey = await new Promise<string>((ok, fail) => {
    const poll = setInterval(() => {
      const m = /verifier key (\S+)/.exec(out);
      if (m && /add-checkpoint:/.test(out)) {
        clearInterval(poll);
        ok(m[1]);
      }
    }, 50);
    proc.once('exit', (code) => {
      clearInterval(poll);
      fail(new Error(`witness exited ${code}: ${out}`));
    });
  });
  return { vkey, proc };
}
