/**
 * Go's reference packages in the tests (Debian's golang-go and golang-golang-x-mod-dev): the GOPATH-mode
 * environment, whether `go` is installed (a test file skips with one warning when it is not; CI
 * installs it), and a build of one program into a directory (`go run` would rebuild it at every call).
 */
import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './serverProcess';

const run = promisify(execFile);

/** GOPATH mode over Debian's /usr/share/gocode (golang.org/x/mod/sumdb/{note,tlog}). */
export const GO_ENV = { ...process.env, GO111MODULE: 'off', GOPATH: '/usr/share/gocode' };

/** Whether `go` runs here; warns once, naming `what` would be skipped, when it does not. */
export function hasGo(what: string): boolean {
  try {
    execFileSync('go', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    console.warn(
      `${what}: \`go\` is not installed: skipping (apt-get install golang-go golang-golang-x-mod-dev)`,
    );
    return false;
  }
}

/** Builds the Go program `program` (a path under the repository) into `dir/name`; resolves that path. */
export async function buildGo(program: string, dir: string, name: string): Promise<string> {
  const out = join(dir, name);
  await run('go', ['build', '-o', out, join(ROOT, program)], { env: GO_ENV, cwd: ROOT });
  return out;
}
