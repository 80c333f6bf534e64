/**
 * Signed checkpoints on the server (docs/ledger.md section 10): the ledger's Ed25519 signing key, and the
 * signer that, in each block's database transaction, signs a C2SP tlog-checkpoint of the channel (origin
 * `<key name>/<channel>`, size = height, root hash = head block hash, extension `time <ISO-8601 UTC>`) as
 * a C2SP signed-note and stores it in `ledger_checkpoint`. Signing uses node:crypto; the note format and
 * every check are in common/ledger/note.ts (Web Crypto), shared with the browser and the witness.
 *
 * The key: `LEDGER_SIGNING_KEY` (a PKCS#8 PEM private key, or the standard base64 of a 32-byte Ed25519
 * seed), else `<DATA_DIR>/ledger-signing-key.pem`, created (mode 0600) at first start.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  type KeyObject,
} from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CompiledQuery, type Kysely } from 'kysely';
import { compiledSql } from '../db/connect';
import { fromHex, toHex } from '../../common/ledger/hex';
import {
  checkKeyName,
  formatCheckpoint,
  fromBase64,
  noteKeyId,
  signatureLine,
  verifierKey,
} from '../../common/ledger/note';
import type { CommitHook } from '../../common/ledger/types';
import type { LedgerTables } from './tables';

/** File name of the generated key in DATA_DIR. */
export const KEY_FILE = 'ledger-signing-key.pem';

/** The ledger's signing key and its public forms. */
export interface SigningKey {
  /** Key name in signature lines and origin prefix (`LEDGER_KEY_NAME`, default `baas-admin`). */
  name: string;
  privateKey: KeyObject;
  /** The 32 raw public key bytes. */
  publicKey: Uint8Array;
  /** SubjectPublicKeyInfo, PEM. */
  spkiPem: string;
  /** SHA-256 hex of the SPKI DER bytes. */
  fingerprint: string;
  /** Go note verifier key `<name>+<key ID>+<base64(0x01 ‖ key)>`. */
  vkey: string;
  /** Key ID (4 bytes, hex). */
  keyId: string;
  /** Where the key came from: `env` or the file path. */
  source: string;
}

/** PKCS#8 DER prefix of an Ed25519 private key (RFC 8410), followed by the 32-byte seed. */
const PKCS8_ED25519_PREFIX = fromHex('302e020100300506032b657004220420');

/** A private key from `LEDGER_SIGNING_KEY` text. @throws Error naming the variable when unusable. */
function privateKeyFromEnv(text: string): KeyObject {
  const t = text.trim().replace(/\\n/g, '\n');
  let key: KeyObject;
  try {
    if (t.startsWith('-----BEGIN')) key = createPrivateKey(t);
    else {
      const seed = fromBase64(t);
      if (seed.length !== 32) throw new Error('a seed is 32 bytes');
      key = createPrivateKey({
        key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
        format: 'der',
        type: 'pkcs8',
      });
    }
  } catch (err) {
    throw new Error(
      `LEDGER_SIGNING_KEY must be a PKCS#8 PEM Ed25519 private key or the base64 of a 32-byte seed: ${(err as Error).message}`,
    );
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('LEDGER_SIGNING_KEY must be an Ed25519 key');
  return key;
}

/** Public forms of a private key. */
export async function describeKey(name: string, privateKey: KeyObject, source: string): Promise<SigningKey> {
  checkKeyName(name);
  const pub = createPublicKey(privateKey);
  const jwk = pub.export({ format: 'jwk' });
  const publicKey = new Uint8Array(Buffer.from(jwk.x!, 'base64url'));
  const der = pub.export({ format: 'der', type: 'spki' });
  return {
    name,
    privateKey,
    publicKey,
    spkiPem: pub.export({ format: 'pem', type: 'spki' }).toString(),
    fingerprint: createHash('sha256').update(der).digest('hex'),
    vkey: await verifierKey(name, publicKey),
    keyId: toHex(await noteKeyId(name, publicKey)),
    source,
  };
}

/**
 * Loads the signing key: `envKey` (LEDGER_SIGNING_KEY) when set, else `<dataDir>/ledger-signing-key.pem`,
 * generating it on first use. @throws Error for an unusable key.
 */
export async function loadSigningKey(opts: {
  dataDir: string;
  envKey?: string;
  name: string;
}): Promise<SigningKey> {
  if (opts.envKey) return describeKey(opts.name, privateKeyFromEnv(opts.envKey), 'env LEDGER_SIGNING_KEY');
  const file = join(opts.dataDir, KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(opts.dataDir, { recursive: true });
    const { privateKey } = generateKeyPairSync('ed25519');
    writeFileSync(file, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
  }
  const key = createPrivateKey(readFileSync(file, 'utf8'));
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${file} is not an Ed25519 private key`);
  return describeKey(opts.name, key, file);
}

/** ISO-8601 UTC with milliseconds. */
function isoTime(d = new Date()): string {
  return d.toISOString();
}

/** Signs a checkpoint body as a signed note (one signature line). */
export async function signNote(key: SigningKey, body: string): Promise<string> {
  const sig = sign(null, Buffer.from(body, 'utf8'), key.privateKey);
  return `${body}\n${signatureLine(key.name, fromHex(key.keyId), new Uint8Array(sig))}`;
}

/** The checkpoint origin of a channel: `<key name>/<channel>`. */
export function checkpointOrigin(key: { name: string }, channel: string): string {
  return `${key.name}/${channel}`;
}

/** `INSERT INTO ledger_checkpoint (channelId, size, rootHash, note, createdAt) ... ON CONFLICT DO NOTHING`, compiled once per dialect. */
function insertSql(db: Kysely<any>): string {
  return compiledSql(db, 'ledger_checkpoint:insert', () =>
    (db as Kysely<LedgerTables>)
      .insertInto('ledger_checkpoint')
      .values({ channelId: 0, size: 0, rootHash: '', note: '', createdAt: '' })
      .onConflict((oc) => oc.columns(['channelId', 'size']).doNothing())
      .compile(),
  );
}

/** A stored checkpoint. */
export interface StoredCheckpoint {
  channelId: number;
  size: number;
  rootHash: string;
  note: string;
  createdAt: string;
}

/**
 * Signs and stores checkpoints. `signInBlock` is a commit hook (the write pipeline's `onCommit`): it signs
 * the checkpoint of each block inside the block's own database transaction, so a block and its signed
 * checkpoint are stored together or not at all, with one commit (issue 9 item 6: signing must not halve
 * the throughput). `signHeads` at start signs any channel head left unsigned (a database written before
 * the signer existed, or with its checkpoints deleted).
 */
export class CheckpointSigner {
  constructor(
    private readonly db: Kysely<any>,
    readonly key: SigningKey,
    private readonly logError: (err: unknown, msg: string) => void = () => {},
  ) {}

  private get ldb(): Kysely<LedgerTables> {
    return this.db as Kysely<LedgerTables>;
  }

  /**
   * Commit hook: signs the checkpoint of `block`'s channel at height `block.number + 1` and stores it
   * through `trx`, the block's database transaction. A failure fails the block (it is retried), so no
   * block is ever committed without its checkpoint.
   */
  readonly signInBlock: CommitHook = async (block, _txs, trx) => {
    await this.sign(block.channelId, block.channel, block.number + 1, block.blockHash, trx as Kysely<any>);
  };

  /**
   * Signs and stores one checkpoint (a second one of the same size is kept as it was), through `db`
   * (a transaction) or the signer's own connection.
   */
  async sign(
    channelId: number,
    channel: string,
    size: number,
    rootHash: string,
    db: Kysely<any> = this.db,
  ): Promise<StoredCheckpoint> {
    const createdAt = isoTime();
    const body = formatCheckpoint({
      origin: checkpointOrigin(this.key, channel),
      size,
      rootHash,
      extensions: [`time ${createdAt}`],
    });
    const note = await signNote(this.key, body);
    const row = { channelId, size, rootHash, note, createdAt };
    await db.executeQuery(
      CompiledQuery.raw(insertSql(db), [row.channelId, row.size, row.rootHash, row.note, row.createdAt]),
    );
    return row;
  }

  /** Signs the head of every channel whose latest checkpoint is older than its height. */
  async signHeads(): Promise<void> {
    const channels = await this.ldb.selectFrom('ledger_channel').select(['id', 'name']).execute();
    for (const ch of channels) {
      const head = await this.ldb
        .selectFrom('ledger_block')
        .select(['number', 'blockHash'])
        .where('channelId', '=', ch.id)
        .orderBy('number', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (!head) continue;
      const latest = await latestCheckpoint(this.db, ch.id);
      if (!latest || latest.size < head.number + 1)
        await this.sign(ch.id, ch.name, head.number + 1, head.blockHash);
    }
  }
}

/** The latest checkpoint of a channel, or undefined. */
export async function latestCheckpoint(
  db: Kysely<any>,
  channelId: number,
): Promise<StoredCheckpoint | undefined> {
  return (db as Kysely<LedgerTables>)
    .selectFrom('ledger_checkpoint')
    .selectAll()
    .where('channelId', '=', channelId)
    .orderBy('size', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The checkpoint of a channel at `size`, else the first one after it (it covers block size − 1 too). */
export async function checkpointCovering(
  db: Kysely<any>,
  channelId: number,
  size: number,
): Promise<StoredCheckpoint | undefined> {
  return (db as Kysely<LedgerTables>)
    .selectFrom('ledger_checkpoint')
    .selectAll()
    .where('channelId', '=', channelId)
    .where('size', '>=', size)
    .orderBy('size')
    .limit(1)
    .executeTakeFirst();
}

/** The checkpoint of a channel at exactly `size`, or undefined. */
export async function checkpointAt(
  db: Kysely<any>,
  channelId: number,
  size: number,
): Promise<StoredCheckpoint | undefined> {
  return (db as Kysely<LedgerTables>)
    .selectFrom('ledger_checkpoint')
    .selectAll()
    .where('channelId', '=', channelId)
    .where('size', '=', size)
    .executeTakeFirst();
}
