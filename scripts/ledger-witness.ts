/**
 * `npm run ledger:witness -- --url <server> --state <file> [--channel artchannel] [--name <witness>]
 * [--interval <seconds>] [--once]`: a witness of the ledger's signed checkpoints (docs/ledger.md
 * section 11). It keeps, in the state file (JSON, created at first run), the server's signing key it
 * saw first (pinned), its own Ed25519 key, and the last checkpoint it verified. On each poll it fetches
 * the latest checkpoint (`GET /baas-api/public/checkpoint`), checks the server's signature with the pinned
 * key, checks that it extends the last one through the headers of `GET /baas-api/public/consistency`
 * (an RFC 6962 consistency proof from the log, common/ledger/tlog.ts `checkTree`), cosigns it (C2SP tlog-cosignature v1) and stores the
 * cosignature on the server (`POST /baas-api/witness/cosign`, admin: `WITNESS_TOKEN`, or `--user` with
 * `WITNESS_PASSWORD`), then saves the new state.
 *
 * Alerts: on a fork, a rollback, a bad signature (or a changed server key) or a gap it writes the
 * evidence (both notes, the headers, the failure) to `<state>.alert-<time>.json`, prints it, and exits 1
 * without changing the state. Exit 2: usage, network or server error.
 */
import { createPrivateKey, createPublicKey, randomBytes, sign, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { fromHex } from '../common/ledger/hex';
import { checkTree } from '../common/ledger/tlog';
import {
  COSIGNATURE_TYPE,
  cosignatureMessage,
  fromBase64,
  noteKeyId,
  signatureLine,
  timeBytes,
  toBase64,
  verifyCheckpointNote,
} from '../common/ledger/note';

const PKCS8_ED25519_PREFIX = fromHex('302e020100300506032b657004220420');

/** The state file. */
export interface WitnessState {
  url: string;
  channel: string;
  /** The server's key, pinned at the first poll. */
  server?: { name: string; publicKey: string; fingerprint: string; vkey: string };
  witness: { name: string; seed: string };
  /** The last verified (and cosigned) checkpoint note. */
  note?: string;
  size?: number;
}

interface Options {
  url: string;
  state: string;
  channel: string;
  name: string;
  intervalS: number;
  once: boolean;
  user?: string;
}

/** Thrown on a fork, rollback, bad signature or gap. */
export class WitnessAlert extends Error {
  constructor(
    readonly kind: 'fork' | 'rollback' | 'bad-signature' | 'gap',
    message: string,
    readonly evidence: Record<string, unknown>,
  ) {
    super(message);
  }
}

function usage(): string {
  return 'usage: npm run ledger:witness -- --url <server> --state <file> [--channel artchannel] [--name <witness>] [--interval <seconds>] [--once] [--user admin]\n  admin credentials: WITNESS_TOKEN, or --user with WITNESS_PASSWORD';
}

function parseArgs(argv: string[]): Options {
  const o: Partial<Options> = {
    channel: 'artchannel',
    intervalS: 10,
    once: false,
    name: `witness-${hostname()}`,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--url') o.url = next().replace(/\/+$/, '');
    else if (a === '--state') o.state = next();
    else if (a === '--channel') o.channel = next();
    else if (a === '--name') o.name = next();
    else if (a === '--interval') o.intervalS = Number(next());
    else if (a === '--user') o.user = next();
    else if (a === '--once') o.once = true;
    else throw new Error(`unknown argument "${a}"`);
  }
  if (!o.url || !o.state) throw new Error('--url and --state are required');
  if (!(o.intervalS! >= 1)) throw new Error('--interval must be at least 1 second');
  if (!/^[^\s+]{1,64}$/.test(o.name!))
    throw new Error('--name must be 1..64 characters without spaces or "+"');
  return o as Options;
}

function privateKeyOf(seedB64: string): KeyObject {
  return createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, fromBase64(seedB64)]),
    format: 'der',
    type: 'pkcs8',
  });
}

function rawPublicKey(key: KeyObject): Uint8Array {
  return new Uint8Array(Buffer.from(createPublicKey(key).export({ format: 'jwk' }).x!, 'base64url'));
}

function loadState(o: Options): WitnessState {
  if (existsSync(o.state)) {
    const s = JSON.parse(readFileSync(o.state, 'utf8')) as WitnessState;
    if (s.url !== o.url || s.channel !== o.channel)
      console.error(
        `note: the state file was kept for ${s.url} channel ${s.channel}; now watching ${o.url} ${o.channel}`,
      );
    return { ...s, url: o.url, channel: o.channel };
  }
  return { url: o.url, channel: o.channel, witness: { name: o.name, seed: toBase64(randomBytes(32)) } };
}

function saveState(file: string, s: WitnessState): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(s, null, 2), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

async function api<T>(url: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(url, init);
  const body = (await res.json().catch(() => null)) as { code: number; msg: string; data: T } | null;
  if (!res.ok || !body || body.code !== 0)
    throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${body?.msg ?? ''}`);
  return body.data;
}

async function adminToken(o: Options): Promise<string> {
  if (process.env.WITNESS_TOKEN) return process.env.WITNESS_TOKEN;
  if (o.user && process.env.WITNESS_PASSWORD) {
    const d = await api<{ token: string }>(`${o.url}/dev-api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: o.user, password: process.env.WITNESS_PASSWORD }),
    });
    return d.token;
  }
  throw new Error('set WITNESS_TOKEN, or --user with WITNESS_PASSWORD, to store cosignatures');
}

/**
 * One poll: verify, check consistency, cosign, store. Answers the new state (the caller saves it).
 * @throws WitnessAlert on a fork, rollback, bad signature or gap; Error on network/server failures.
 */
export async function poll(o: Options, state: WitnessState, token: string): Promise<WitnessState> {
  const key = await api<{ name: string; publicKey: string; fingerprint: string; vkey: string }>(
    `${o.url}/baas-api/public/key`,
  );
  const server = state.server ?? {
    name: key.name,
    publicKey: key.publicKey,
    fingerprint: key.fingerprint,
    vkey: key.vkey,
  };
  if (state.server && state.server.vkey !== key.vkey)
    throw new WitnessAlert(
      'bad-signature',
      `the server now publishes another signing key (${key.fingerprint}, pinned ${state.server.fingerprint})`,
      {
        pinned: state.server,
        published: key,
      },
    );
  const cp = await api<{ size: number; note: string }>(
    `${o.url}/baas-api/public/checkpoint?channel=${encodeURIComponent(o.channel)}`,
  );
  const pinned = { name: server.name, publicKey: fromBase64(server.publicKey) };
  const v = await verifyCheckpointNote(cp.note, pinned);
  if (!v.ok) throw new WitnessAlert('bad-signature', v.message, { note: cp.note, key: server });
  // The key name is the origin of the records channel's log; other channels share its prefix.
  if (v.checkpoint.origin !== `${server.name.slice(0, server.name.lastIndexOf('/'))}/${o.channel}`)
    throw new WitnessAlert('fork', `unexpected origin "${v.checkpoint.origin}"`, { note: cp.note });
  if (state.note) {
    const old = await verifyCheckpointNote(state.note, pinned);
    if (!old.ok) throw new Error(`the state file's checkpoint does not verify: ${old.message}`);
    const a = old.checkpoint;
    const b = v.checkpoint;
    if (b.size < a.size)
      throw new WitnessAlert('rollback', `the log shrank from ${a.size} to ${b.size} entries`, {
        previous: state.note,
        latest: cp.note,
      });
    const { proof } = await api<{ proof: string[] }>(
      `${o.url}/baas-api/public/log/${encodeURIComponent(o.channel)}/proof/consistency?from=${a.size}&to=${b.size}`,
    ).catch(() => ({ proof: [] as string[] }));
    if (!checkTree(proof.map(fromBase64), b.size, fromHex(b.rootHash), a.size, fromHex(a.rootHash)))
      throw new WitnessAlert(
        'fork',
        `the log of ${b.size} entries does not extend the one of ${a.size} (RFC 6962 consistency proof)`,
        {
          previous: state.note,
          latest: cp.note,
          proof,
        },
      );
  }
  // Cosign (tlog-cosignature v1) and store on the server.
  const priv = privateKeyOf(state.witness.seed);
  const pub = rawPublicKey(priv);
  const time = Math.floor(Date.now() / 1000);
  const sig = sign(null, Buffer.from(cosignatureMessage(v.body, time)), priv);
  const id = await noteKeyId(state.witness.name, pub, COSIGNATURE_TYPE);
  const line = signatureLine(state.witness.name, id, new Uint8Array([...timeBytes(time), ...sig]));
  const cosigned = cp.note + line;
  await api(`${o.url}/baas-api/witness/cosign`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-token': token },
    body: JSON.stringify({
      name: state.witness.name,
      publicKey: toBase64(pub),
      channel: o.channel,
      note: cosigned,
    }),
  });
  return { ...state, server, note: cp.note, size: v.checkpoint.size };
}

async function main(): Promise<number> {
  let o: Options;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`${(err as Error).message}\n${usage()}`);
    return 2;
  }
  let state = loadState(o);
  try {
    const token = await adminToken(o);
    for (;;) {
      state = await poll(o, state, token);
      saveState(o.state, state);
      console.log(
        `${new Date().toISOString()} cosigned ${o.channel} size ${state.size} as ${state.witness.name}`,
      );
      if (o.once) return 0;
      await new Promise((r) => setTimeout(r, o.intervalS * 1000));
    }
  } catch (err) {
    if (err instanceof WitnessAlert) {
      const file = `${o.state}.alert-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
      const evidence = {
        alert: err.kind,
        message: err.message,
        server: o.url,
        channel: o.channel,
        at: new Date().toISOString(),
        ...err.evidence,
      };
      writeFileSync(file, JSON.stringify(evidence, null, 2));
      console.error(`ALERT ${err.kind}: ${err.message}\n  evidence: ${file}`);
      console.error(JSON.stringify(evidence, null, 2));
      return 1;
    }
    console.error(`ledger:witness failed: ${(err as Error).message}`);
    return 2;
  }
}

if (process.argv[1] && /ledger-witness\.ts$/.test(process.argv[1])) process.exitCode = await main();
