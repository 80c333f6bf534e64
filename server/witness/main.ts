/**
 * `npm run witness -- [flags]`: our standalone witness (C2SP tlog-witness, server/witness/app.ts).
 * Flags override the environment:
 *
 * - `--listen <host:port>` / `WITNESS_LISTEN` (default `127.0.0.1:8090`);
 * - `--name <key name>` / `WITNESS_NAME` (default `<hostname>/witness`): its cosigner key name, a
 *   schema-less URL naming it (tlog-cosignature);
 * - `--db <file>` / `WITNESS_DB` (default `./data/witness/witness.sqlite`): its state, one row per log;
 * - `--key-file <file>` / `WITNESS_KEY_FILE` (default `witness-key.pem` beside the state file, created
 *   mode 0600 at first start), or `WITNESS_KEY` (a base64 32-byte seed or a PKCS#8 PEM Ed25519 key);
 * - `--log <vkey>` (repeatable) / `WITNESS_LOGS` (vkeys separated by spaces, commas or newlines) and
 *   `--logs-file <file>` / `WITNESS_LOGS_FILE` (one vkey per line, or `log <vkey> [<url>]` lines as in a
 *   tlog-policy file; `#` comments): the logs it witnesses; a log's origin is its key's name.
 *
 * Prints its verifier key (give it to the logs' operators and to verifiers) and listens until SIGINT or
 * SIGTERM. Exit 2 on a configuration error.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { ED25519_TYPE } from '../../common/ledger/note';
import { parseVkey, type Vkey } from '../../common/ledger/witness';
import { buildWitnessApp } from './app';
import { loadCosignerKey } from './key';
import { WitnessStore } from './store';

/** The witness's configuration. */
export interface WitnessConfig {
  host: string;
  port: number;
  name: string;
  db: string;
  keyFile: string;
  seed?: string;
  logs: string[];
}

const USAGE =
  'usage: npm run witness -- [--listen host:port] [--name <key name>] [--db <file>] [--key-file <file>] --log <log vkey> [--log ...] [--logs-file <file>]';

/** The vkeys listed in a logs file (vkeys, or tlog-policy `log` lines; other policy lines are skipped). */
export function logsFromText(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const words = raw
      .trim()
      .split(/[ \t]+/)
      .filter(Boolean);
    if (words.length === 0 || words[0].startsWith('#')) continue;
    if (words[0] === 'log') out.push(words[1] ?? '');
    else if (!['witness', 'group', 'quorum'].includes(words[0])) out.push(words[0]);
  }
  return out;
}

/** Reads the configuration. @throws Error saying which flag or variable is wrong. */
export function witnessConfig(argv: string[], env: NodeJS.ProcessEnv): WitnessConfig {
  let listen = env.WITNESS_LISTEN || '127.0.0.1:8090';
  let name = env.WITNESS_NAME || `${hostname()}/witness`;
  let db = env.WITNESS_DB || './data/witness/witness.sqlite';
  let keyFile = env.WITNESS_KEY_FILE;
  let logsFile = env.WITNESS_LOGS_FILE;
  const logs = (env.WITNESS_LOGS ?? '').split(/[\s,]+/).filter(Boolean);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--listen') listen = next();
    else if (a === '--name') name = next();
    else if (a === '--db') db = next();
    else if (a === '--key-file') keyFile = next();
    else if (a === '--log') logs.push(next());
    else if (a === '--logs-file') logsFile = next();
    else throw new Error(`unknown argument "${a}"`);
  }
  if (logsFile) logs.push(...logsFromText(readFileSync(logsFile, 'utf8')));
  const m = /^(.+):(\d{1,5})$/.exec(listen);
  if (!m || Number(m[2]) > 65535)
    throw new Error(`--listen / WITNESS_LISTEN must be host:port, got "${listen}"`);
  if (logs.length === 0)
    throw new Error('no log to witness: give --log <vkey>, WITNESS_LOGS or WITNESS_LOGS_FILE');
  return {
    host: m[1].replace(/^\[(.*)\]$/, '$1'),
    port: Number(m[2]),
    name,
    db,
    keyFile: keyFile ?? join(dirname(db), 'witness-key.pem'),
    seed: env.WITNESS_KEY || undefined,
    logs,
  };
}

/** Parses and checks the log vkeys (note signers, type 0x01; the key name is the origin). */
export async function parseLogs(vkeys: string[]): Promise<Vkey[]> {
  const out: Vkey[] = [];
  for (const v of vkeys) {
    const k = await parseVkey(v, [ED25519_TYPE]);
    if (out.some((o) => o.name === k.name && o.keyId === k.keyId)) continue;
    out.push(k);
  }
  return out;
}

async function main(): Promise<void> {
  let config: WitnessConfig;
  let logs: Vkey[];
  try {
    config = witnessConfig(process.argv.slice(2), process.env);
    logs = await parseLogs(config.logs);
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  const key = await loadCosignerKey({ name: config.name, seed: config.seed, file: config.keyFile });
  const store = new WitnessStore(config.db);
  const app = buildWitnessApp({ key, store, logs, logger: { level: process.env.LOG_LEVEL || 'info' } });
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      app.close().then(
        () => {
          store.close();
          process.exit(0);
        },
        () => process.exit(1),
      );
    });
  await app.listen({ host: config.host, port: config.port });
  console.log(
    `\n  witness ${key.name} (key: ${key.source})\n  verifier key ${key.vkey}\n  witnessing ${logs.map((l) => l.name).join(', ')}\n  add-checkpoint: http://${config.host}:${config.port}/add-checkpoint\n`,
  );
}

if (process.argv[1] && /witness[/\\]main\.ts$/.test(process.argv[1])) await main();
