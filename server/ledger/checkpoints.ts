/**
 * Signed checkpoints on the server (docs/ledger.md section 10): the ledger's Ed25519 signing key, and the
 * signer that, in each block's database transaction, signs a C2SP tlog-checkpoint of the channel (origin
 * `<key name>/<channel>`, size = height, root hash = head block hash, extension `time <ISO-8601 UTC>`) as
 * a C2SP signed-note and stores it in `ledger_checkpoint`. Signing uses node:crypto; the note format and
 * every check are in common/ledger/note.ts (Web Crypto), shared with the browser and the witness.
 *
 * The key: `LEDGER_SIGNING_KEY` (a PKCS#8 PEM private key, or the standard base64 of a 32-byte Ed25519
 * seed), else `<LEDGER_KEY_DIR>/ledger-signing-key.pem` (default `<DATA_DIR>-keys`, server/ledger/keyDir.ts), created (mode 0600) at first start.
 */
import { createHash, createPublicKey, sign, type KeyObject } from 'node:crypto';
import { join } from 'node:path';
import { CompiledQuery, type Kysely } from 'kysely';
import type SQLite from 'better-sqlite3';
import { compiledSql, sqliteHandle } from '../db/connect';
import { fromHex, toHex } from '../../common/ledger/hex';
import {
  checkKeyName,
  formatCheckpoint,
  noteKeyId,
  signatureLine,
  splitNote,
  addSignatureLines,
  verifierKey,
  verifyCheckpointNote,
} from '../../common/ledger/note';
import { checkTree } from '../../common/ledger/tlog';
import { LedgerError, type CommitHook, type LedgerAlarm } from '../../common/ledger/types';

export type { LedgerAlarm } from '../../common/ledger/types';
import { readSignedStateFile, writeSignedStateFile } from './signedState';
import { ConfigError } from '../configError';
import { ed25519ConfiguredKey, ed25519PublicKey } from './ed25519Key';
import { originOf, storeOrigin } from './origin';
import type { LedgerTables } from './tables';
import type { TreeStore } from './tree';
import type { WitnessedCheckpoint } from './witnessMemory';
import { checkpointAt, latestCheckpoint, type StoredCheckpoint } from './checkpointQueries';

export {
  checkpointAt,
  checkpointCovering,
  latestCheckpoint,
  type StoredCheckpoint,
} from './checkpointQueries';

/** File name of the generated key in LEDGER_KEY_DIR. */
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

/** Public forms of a private key. */
export async function describeKey(name: string, privateKey: KeyObject, source: string): Promise<SigningKey> {
  checkKeyName(name);
  const pub = createPublicKey(privateKey);
  const publicKey = ed25519PublicKey(privateKey);
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
 * Loads the signing key: `envKey` (LEDGER_SIGNING_KEY) when set, else `<dataDir>/ledger-signing-key.pem` (`dataDir`: the key directory),
 * generating it on first use. @throws Error for an unusable key.
 */
export async function loadSigningKey(opts: {
  dataDir: string;
  envKey?: string;
  name: string;
}): Promise<SigningKey> {
  const { key, source } = ed25519ConfiguredKey(
    opts.envKey,
    'LEDGER_SIGNING_KEY',
    join(opts.dataDir, KEY_FILE),
  );
  return describeKey(opts.name, key, source);
}

/** ISO-8601 UTC with milliseconds. */
function isoTime(d = new Date()): string {
  return d.toISOString();
}

/** Signs a checkpoint body as a signed note (one signature line) with the key's name and key ID. */
export async function signNote(key: SigningKey, body: string): Promise<string> {
  const sig = sign(null, Buffer.from(body, 'utf8'), key.privateKey);
  return `${body}\n${signatureLine(key.name, fromHex(key.keyId), new Uint8Array(sig))}`;
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

/** File, beside the key file, where the signer keeps the last checkpoint it signed per origin. */
export const SIGNED_STATE_FILE = 'ledger-signed-checkpoints.json';

/**
 * Signs and stores checkpoints (C2SP tlog-checkpoint: origin `<prefix>/<channel>`, size = entries of the
 * channel's log, root = its tree hash, extension `time <ISO-8601>`), signed as a C2SP signed note whose
 * key name is the origin.
 *
 * It never signs a fork (issue 19): before signing, the new tree must extend the last checkpoint it
 * signed, checked from stored hashes (the tree's previous root, or an RFC 6962 consistency proof). The
 * last signed checkpoint per origin is kept in memory and in `stateFile` (beside the key, out of reach of
 * whoever can only write the database), so deleting checkpoints from the database does not make a
 * rewritten history signable. At start (`start`) a head that does not extend the larger of that file's
 * and the database's last validly signed checkpoint raises an alarm (`alarms`, logged): the channel
 * refuses submissions (the pipeline's halt predicate, HTTP 503) and nothing is signed until an operator
 * resolves it.
 */
export class CheckpointSigner {
  /** Alarms by channel name. */
  readonly alarms = new Map<string, LedgerAlarm>();
  private readonly keys = new Map<string, Promise<SigningKey>>();
  /** Last checkpoint signed and committed, by channel id. */
  private readonly lastSigned = new Map<number, { size: number; rootHash: string }>();
  /** Channels whose last signed checkpoint was looked up (at start, or at their first block). */
  private readonly loaded = new Set<number>();
  /** Signed inside a block's transaction, not yet known to be committed. */
  private readonly pending = new Map<
    number,
    { origin: string; size: number; rootHash: string; note: string }
  >();
  private state: Record<string, { size: number; rootHash: string; note: string }> = {};
  /** Per channel, the latest tree checked to extend the last signed checkpoint (`checkExtends`). */
  private readonly verified = new Map<number, { size: number; rootHash: string }>();
  private insertStmt: SQLite.Statement | undefined;
  /** Channels whose origin row (`ledger_log`) is known to be committed. */
  private readonly originStored = new Set<number>();
  /** Per channel id and witness, the last witnessed checkpoint (`size root`) checked against the tree. */
  private readonly witnessChecked = new Map<number, Map<string, string>>();
  /** Per channel id, the checkpoints this process signed and committed lately (size → root hex). */
  private readonly signedRecent = new Map<number, Map<number, string>>();

  constructor(
    private readonly db: Kysely<any>,
    /** The key, named after the default channel's origin. */
    readonly key: SigningKey,
    private readonly tree: TreeStore,
    readonly opts: {
      /** Origin prefix (origin.ts). */
      prefix: string;
      /** Where the last signed checkpoints are kept; undefined: memory only (tests). */
      stateFile?: string;
      /** The key being rotated out (`LEDGER_PREVIOUS_SIGNING_KEY`): see `rotate`. */
      previousKey?: KeyObject;
      logRotation?: (origin: string, size: number) => void;
      logError?: (err: unknown, msg: string) => void;
      logAlarm?: (alarm: LedgerAlarm) => void;
      /**
       * What the witnesses remember of an origin (server/ledger/witnessMemory.ts), each checkpoint's log
       * signature already verified: the signer never signs a tree that does not extend them.
       */
      witnessed?: (origin: string) => WitnessedCheckpoint[];
    },
  ) {
    if (opts.stateFile)
      try {
        this.state = readSignedStateFile(opts.stateFile) ?? this.state;
      } catch (err) {
        // The server does not start on a damaged state file: it would forget what it signed.
        throw new ConfigError(`${(err as Error).message} (the signer's state file)`, { cause: err });
      }
  }

  private get ldb(): Kysely<LedgerTables> {
    return this.db as Kysely<LedgerTables>;
  }

  /** The origin of a channel's log. */
  origin(channel: string): string {
    return originOf(this.opts.prefix, channel);
  }

  /** The key as named for a channel's log (key name = origin; same Ed25519 key). */
  keyFor(channel: string): Promise<SigningKey> {
    const origin = this.origin(channel);
    let k = this.keys.get(origin);
    if (!k) {
      k =
        origin === this.key.name
          ? Promise.resolve(this.key)
          : describeKey(origin, this.key.privateKey, this.key.source);
      this.keys.set(origin, k);
    }
    return k;
  }

  /** Why a channel refuses submissions, or undefined (the pipeline's halt predicate). */
  readonly halted = (channel: string): string | undefined => this.alarms.get(channel)?.reason;

  private raise(alarm: LedgerAlarm): never {
    if (!this.alarms.has(alarm.channel)) {
      this.alarms.set(alarm.channel, alarm);
      this.opts.logAlarm?.(alarm);
    }
    throw new LedgerError('halted', alarm.reason);
  }

  /**
   * Checks that the tree (size, rootHash) of a channel extends its last signed checkpoint, from stored
   * hashes read through `db`; raises the alarm and throws `LedgerError('halted')` when not.
   */
  async checkExtends(
    channelId: number,
    channel: string,
    head: { size: number; rootHash: string },
    db: Kysely<any> = this.db,
  ): Promise<void> {
    const alarm = this.alarms.get(channel);
    if (alarm) throw new LedgerError('halted', alarm.reason);
    await this.checkWitnessed(channelId, channel, head, db);
    if (!this.loaded.has(channelId)) {
      // A channel created after start (or a database emptied under a key directory that remembers its
      // origin): the state file's checkpoint of that origin is the last signed one.
      this.loaded.add(channelId);
      const fromFile = this.state[this.origin(channel)];
      const v = fromFile && (await this.validSigned(channel, fromFile.note));
      if (v) this.lastSigned.set(channelId, v);
    }
    const last = this.lastSigned.get(channelId);
    if (!last) return;
    // Shortcut (issue 19 item 10): this process just made `head` by appending to a tree whose root it
    // recomputed from stored hashes (tree.ts lastAppend), and that tree is the last signed one or one
    // already checked to extend it; extension is transitive, so no proof is needed.
    const made = this.tree.lastAppend(channelId);
    const known = this.verified.get(channelId) ?? last;
    if (made && sameTree(made.to, head) && (sameTree(made.from, known) || sameTree(made.from, last))) {
      this.verified.set(channelId, { size: head.size, rootHash: head.rootHash });
      return;
    }
    const base = { channel, origin: this.origin(channel), signed: last, head, since: isoTime() };
    if (head.size < last.size)
      this.raise({
        ...base,
        kind: 'rollback',
        reason: `the log has ${head.size} entries, fewer than the ${last.size} of the last signed checkpoint`,
      });
    if (await this.extendsTree(channelId, head, last, db))
      this.verified.set(channelId, { size: head.size, rootHash: head.rootHash });
    else
      this.raise({
        ...base,
        kind: 'fork',
        reason: `the stored tree of ${head.size} entries does not extend the last signed checkpoint (${last.size} entries, root ${last.rootHash})`,
      });
  }

  /**
   * Whether the stored tree `head` extends the tree `old` (size ≤ head's): an RFC 6962 consistency proof
   * from stored hashes read through `db`, checked against both roots. False when it cannot be made.
   */
  private async extendsTree(
    channelId: number,
    head: { size: number; rootHash: string },
    old: { size: number; rootHash: string },
    db: Kysely<any>,
  ): Promise<boolean> {
    try {
      const proof = await this.tree.consistencyProof(channelId, head.size, old.size, db);
      return checkTree(proof, head.size, fromHex(head.rootHash), old.size, fromHex(old.rootHash));
    } catch {
      return false;
    }
  }

  /**
   * Checks that the tree (size, rootHash) extends every checkpoint the witnesses remember of the channel
   * (each checked once per tree); raises a `rollback` or `fork` alarm naming the witness and both sizes.
   */
  private async checkWitnessed(
    channelId: number,
    channel: string,
    head: { size: number; rootHash: string },
    db: Kysely<any>,
  ): Promise<void> {
    const origin = this.origin(channel);
    const done = this.witnessChecked.get(channelId) ?? new Map<string, string>();
    this.witnessChecked.set(channelId, done);
    for (const w of this.opts.witnessed?.(origin) ?? []) {
      const id = `${w.size} ${w.rootHash}`;
      if (done.get(w.witness) === id) continue;
      // One this process signed: the head extends it already (each block extends the previous one).
      if (this.signedRecent.get(channelId)?.get(w.size) === w.rootHash && head.size >= w.size) {
        done.set(w.witness, id);
        continue;
      }
      const base = {
        channel,
        origin,
        signed: { size: w.size, rootHash: w.rootHash },
        head,
        since: isoTime(),
        witness: w.witness,
      };
      if (head.size < w.size)
        this.raise({
          ...base,
          kind: 'rollback',
          reason: `the log has ${head.size} entries, fewer than the ${w.size} of the checkpoint witness ${w.witness} cosigned`,
        });
      if (!(await this.extendsTree(channelId, head, w, db)))
        this.raise({
          ...base,
          kind: 'fork',
          reason: `the stored tree of ${head.size} entries does not extend the checkpoint of ${w.size} entries (root ${w.rootHash}) witness ${w.witness} cosigned`,
        });
      done.set(w.witness, id);
    }
  }

  /**
   * After the witnesses' memory changed while running (a witness refused a checkpoint and was asked
   * again): checks the channel's stored head against it now, raising the alarm when it does not extend
   * it. Resolves to the alarm, if any. Never throws for an alarm.
   */
  async reviewWitnessed(channelId: number, channel: string): Promise<LedgerAlarm | undefined> {
    const head = await this.tree.head(channelId);
    if (!head) return this.alarms.get(channel);
    try {
      await this.checkWitnessed(channelId, channel, { size: head.size, rootHash: head.rootHash }, this.db);
    } catch (err) {
      if (!(err instanceof LedgerError)) throw err;
    }
    return this.alarms.get(channel);
  }

  /**
   * The checkpoint a note signs when it verifies with this log's key (or the key being rotated out)
   * under `origin`, one of this log's origins: `{size, rootHash hex}`, else undefined. For the witnesses'
   * memory: a witness cannot make the log believe a checkpoint the log never signed.
   */
  readonly checkOriginNote = async (
    origin: string,
    note: string,
  ): Promise<{ size: number; rootHash: string } | undefined> => {
    const prefix = `${this.opts.prefix}/`;
    if (!origin.startsWith(prefix)) return undefined;
    const channel = origin.slice(prefix.length);
    if (this.origin(channel) !== origin) return undefined;
    return this.validSigned(channel, note);
  };

  /**
   * Commit hook: signs the checkpoint of the channel's log after `block` (its `treeSize`, `treeRoot`)
   * and stores it through `trx`, the block's database transaction, after checking it extends the last
   * signed one. A failure fails the block, so no block is ever committed without its checkpoint.
   */
  readonly signInBlock: CommitHook = async (block, _txs, trx) => {
    if (block.treeSize === undefined || block.treeRoot === undefined)
      throw new Error(`block ${block.number} of ${block.channel} has no tree head`);
    const head = { size: block.treeSize, rootHash: block.treeRoot };
    await this.checkExtends(block.channelId, block.channel, head, trx as Kysely<any>);
    await this.sign(block.channelId, block.channel, head.size, head.rootHash, trx as Kysely<any>);
  };

  /**
   * After a block committed (the pipeline's block-committed hook): what was signed in it becomes the
   * last signed checkpoint, in memory and in the state file.
   */
  readonly committed = (block: { channelId: number }): void => {
    const p = this.pending.get(block.channelId);
    if (!p) return;
    this.pending.delete(block.channelId);
    this.originStored.add(block.channelId);
    const last = this.lastSigned.get(block.channelId);
    if (last && last.size > p.size) return;
    this.lastSigned.set(block.channelId, { size: p.size, rootHash: p.rootHash });
    const recent = this.signedRecent.get(block.channelId) ?? new Map<number, string>();
    this.signedRecent.set(block.channelId, recent);
    recent.set(p.size, p.rootHash);
    if (recent.size > 256) recent.delete(recent.keys().next().value!);
    this.state[p.origin] = { size: p.size, rootHash: p.rootHash, note: p.note };
    this.saveState();
  };

  private saveState(): void {
    const file = this.opts.stateFile;
    if (!file) return;
    try {
      writeSignedStateFile(file, this.state);
    } catch (err) {
      this.opts.logError?.(err, `ledger: could not write ${file}`);
    }
  }

  /**
   * Signs and stores one checkpoint (a second one of the same size is kept as it was), through `db`
   * (a transaction) or the signer's own connection. Callers check consistency first (`checkExtends`).
   */
  async sign(
    channelId: number,
    channel: string,
    size: number,
    rootHash: string,
    db: Kysely<any> = this.db,
  ): Promise<StoredCheckpoint> {
    const key = await this.keyFor(channel);
    const createdAt = isoTime();
    const body = formatCheckpoint({
      origin: this.origin(channel),
      size,
      rootHash,
      extensions: [`time ${createdAt}`],
    });
    const note = await signNote(key, body);
    const row = { channelId, size, rootHash, note, createdAt };
    if (!this.originStored.has(channelId)) await storeOrigin(db, channelId, this.origin(channel));
    const params = [row.channelId, row.size, row.rootHash, row.note, row.createdAt];
    // Inside a block's transaction on SQLite: a prepared statement on its (the one) connection.
    const sqlite = db !== this.db ? sqliteHandle(this.db) : undefined;
    if (sqlite) (this.insertStmt ??= sqlite.prepare(insertSql(this.db))).run(...params);
    else await db.executeQuery(CompiledQuery.raw(insertSql(db), params));
    this.pending.set(channelId, { origin: this.origin(channel), size, rootHash, note });
    return row;
  }

  /** The last checkpoint of a note text when it verifies with this channel's key, else undefined. */
  private async validSigned(
    channel: string,
    note: string,
  ): Promise<{ size: number; rootHash: string } | undefined> {
    try {
      for (const key of [await this.keyFor(channel), await this.previousKeyFor(channel)]) {
        if (!key) continue;
        const v = await verifyCheckpointNote(note, key);
        if (v.ok && v.checkpoint.origin === this.origin(channel))
          return { size: v.checkpoint.size, rootHash: v.checkpoint.rootHash };
      }
      return undefined;
    } catch {
      return undefined;
    }
  }

  /** The key being rotated out, as named for a channel's log, or undefined. */
  private async previousKeyFor(channel: string): Promise<SigningKey | undefined> {
    const k = this.opts.previousKey;
    return k && describeKey(this.origin(channel), k, 'env LEDGER_PREVIOUS_SIGNING_KEY');
  }

  /**
   * Key rotation (docs/ledger.md section 10): when the channel's latest stored checkpoint is signed by
   * the previous key and not by the current one, the current key signs the same body and its signature
   * line is added after the previous key's: the transition checkpoint, signed by both, from which a
   * verifier that trusts the old key learns the new one. The body (size, root, time) is unchanged, so
   * nothing new is claimed; the row and the last-signed state take the note with both signatures.
   */
  private async rotate(channelId: number, channel: string): Promise<void> {
    const previous = await this.previousKeyFor(channel);
    const latest = previous && (await latestCheckpoint(this.db, channelId));
    if (!previous || !latest) return;
    const key = await this.keyFor(channel);
    if ((await verifyCheckpointNote(latest.note, key)).ok) return;
    const old = await verifyCheckpointNote(latest.note, previous);
    if (!old.ok || old.checkpoint.origin !== this.origin(channel)) return;
    const { body } = splitNote(latest.note);
    const line = (await signNote(key, body)).slice(body.length + 1);
    const note = addSignatureLines(latest.note, [line]);
    await this.ldb
      .updateTable('ledger_checkpoint')
      .set({ note })
      .where('channelId', '=', channelId)
      .where('size', '=', latest.size)
      .execute();
    const origin = this.origin(channel);
    if (!this.state[origin] || this.state[origin].size <= latest.size) {
      this.state[origin] = { size: Number(latest.size), rootHash: latest.rootHash, note };
      this.saveState();
    }
    this.opts.logRotation?.(origin, Number(latest.size));
  }

  /**
   * At start: for every channel, the last signed checkpoint is the larger of the state file's and the
   * database's latest checkpoint whose signature verifies; a stored head that does not extend it raises
   * the alarm (nothing signed); else an unsigned head is signed.
   */
  async start(): Promise<void> {
    const channels = await this.ldb
      .selectFrom('ledger_channel')
      .select(['id', 'name'])
      .orderBy('id')
      .execute();
    for (const ch of channels) {
      await this.rotate(ch.id, ch.name);
      const candidates: { size: number; rootHash: string }[] = [];
      const fromFile = this.state[this.origin(ch.name)];
      if (fromFile) {
        const v = await this.validSigned(ch.name, fromFile.note);
        if (v) candidates.push(v);
      }
      const latest = await latestCheckpoint(this.db, ch.id);
      if (latest) {
        const v = await this.validSigned(ch.name, latest.note);
        if (v) candidates.push(v);
        else {
          // A key that did not sign this log (an empty key directory beside a restored database makes a
          // new one): signing would put a second key under the same origin. Halt instead.
          const head = (await this.tree.head(ch.id)) ?? { size: 0, rootHash: '' };
          try {
            this.raise({
              channel: ch.name,
              origin: this.origin(ch.name),
              kind: 'key',
              reason: `the latest stored checkpoint (${latest.size} entries) is not signed by this log's key ${(await this.keyFor(ch.name)).vkey}: start with the key that signed it (LEDGER_KEY_DIR or LEDGER_SIGNING_KEY), or rotate to this one with LEDGER_PREVIOUS_SIGNING_KEY`,
              signed: { size: Number(latest.size), rootHash: latest.rootHash },
              head: { size: head.size, rootHash: head.rootHash },
              since: isoTime(),
            });
          } catch {
            this.loaded.add(ch.id);
            continue;
          }
        }
      }
      candidates.sort((a, b) => b.size - a.size);
      if (candidates[0]) this.lastSigned.set(ch.id, candidates[0]);
      this.loaded.add(ch.id);
      const head = await this.tree.head(ch.id);
      if (!head) continue;
      // The stored root must be the tree hash of the stored hashes (a forger may have written either).
      const root = await this.tree.treeHashAt(ch.id, head.size);
      try {
        await this.checkExtends(ch.id, ch.name, { size: head.size, rootHash: root });
      } catch (err) {
        if (err instanceof LedgerError) continue;
        throw err;
      }
      if (root !== head.rootHash) {
        this.raise({
          channel: ch.name,
          origin: this.origin(ch.name),
          kind: 'fork',
          reason: `the stored root of ${head.size} entries is not the tree hash of the stored hashes`,
          signed: candidates[0] ?? { size: 0, rootHash: '' },
          head,
          since: isoTime(),
        });
      }
      if (
        !candidates[0] ||
        candidates[0].size < head.size ||
        !(await checkpointAt(this.db, ch.id, head.size))
      ) {
        await this.sign(ch.id, ch.name, head.size, head.rootHash);
        this.committed({ channelId: ch.id });
      }
    }
  }
}

/** Whether two trees are the same (size and root hash). */
function sameTree(a: { size: number; rootHash: string }, b: { size: number; rootHash: string }): boolean {
  return a.size === b.size && a.rootHash === b.rootHash;
}
