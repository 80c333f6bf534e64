/**
 * `ledger:verify`'s check of the signer's state file (docs/ledger.md section 10, "Never a fork"; issue
 * 31): `<LEDGER_KEY_DIR>/ledger-signed-checkpoints.json` (server/ledger/checkpoints.ts
 * `SIGNED_STATE_FILE`), `{ [origin]: {size, rootHash (hex), note} }`, holds the last checkpoint the
 * server signed per origin, out of reach of whoever can only write the database. A database restored
 * from an older copy, or rewritten, is caught against it:
 *
 * - the note must verify with the log's key (or a key it replaced), under the origin's name, and name
 *   the entry's size and root hash (`signature`);
 * - the database's log must not be smaller (`rollback`: "the log has N entries, the last signed
 *   checkpoint has M");
 * - and must be consistent with it: the RFC 6962 consistency proof from M to N, made from the stored
 *   hashes (`ledger_tree`, server/ledger/tree.ts `TreeStore`), checks against the tree hash of the
 *   stored hashes and the state's root (`fork`).
 *
 * A channel is found by its origin in `ledger_log`. An origin under this database's prefix (stored in
 * `ledger_log`, or `LEDGER_ORIGIN`) that it holds no log of has 0 entries (a rollback); an origin under
 * another prefix is another deployment's log: not checked (`checked: false`), as the signer ignores it.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Kysely } from 'kysely';
import { fromHex } from '../../common/ledger/hex';
import { verifyCheckpointNoteByAny } from '../../common/ledger/note';
import { checkTree } from '../../common/ledger/tlog';
import type { LedgerTables } from './tables';
import { TreeStore } from './tree';

/** One origin's entry of the state file. */
export interface SignedStateEntry {
  size: number;
  rootHash: string;
  note: string;
}

/** The result of one origin's check. */
export interface SignedStateCheck {
  origin: string;
  /** The channel of that origin in the database, or null when it holds none. */
  channel: string | null;
  ok: boolean;
  /** False for an origin of another prefix than this database's (not checked, `ok`). */
  checked: boolean;
  /** Why not ok. */
  kind?: 'signature' | 'rollback' | 'fork';
  /** Entries of the database's log, and of the last signed checkpoint (the state's size). */
  logSize: number;
  signedSize: number;
  message: string;
}

/**
 * Parses the state file's text. @throws Error with one line naming `file` when it is not JSON or not of
 * the shape `{ [origin]: {size: integer ≥ 0, rootHash: 64 hex, note: string} }`.
 */
export function parseSignedState(text: string, file: string): Record<string, SignedStateEntry> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: not JSON (${(err as Error).message})`);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data))
    throw new Error(`${file}: expected an object of origins`);
  for (const [origin, e] of Object.entries(data as Record<string, unknown>)) {
    const v = e as Partial<SignedStateEntry> | null;
    if (
      !v ||
      typeof v !== 'object' ||
      !Number.isInteger(v.size) ||
      (v.size as number) < 0 ||
      typeof v.rootHash !== 'string' ||
      !/^[0-9a-f]{64}$/.test(v.rootHash) ||
      typeof v.note !== 'string'
    )
      throw new Error(`${file}: the entry of "${origin}" is not {size, rootHash (hex), note}`);
  }
  return data as Record<string, SignedStateEntry>;
}

/**
 * The state file `file` parsed (`parseSignedState`), or undefined when it does not exist: the one reader
 * of the file, for the signer (server/ledger/checkpoints.ts), `ledger:verify`, the backup and the restore.
 * @throws Error with one line naming `file` when it is not a signed state
 */
export function readSignedStateFile(file: string): Record<string, SignedStateEntry> | undefined {
  if (!existsSync(file)) return undefined;
  return parseSignedState(readFileSync(file, 'utf8'), file);
}

/**
 * Writes `state` to `file` atomically: a temporary file of this process (mode 0600) renamed over it, so
 * a reader or a crash sees the old state or the new one, never half of one. Its directory is created
 * 0700 when missing (the key dir's mode, docs/ledger.md).
 */
export function writeSignedStateFile(file: string, state: Record<string, SignedStateEntry>): void {
  const dir = dirname(file);
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
  }
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(state, null, 1), { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

/**
 * Checks each origin of `state` against the database (see the module's comment).
 * @param key the log's public key (key name = each origin); `previous`: keys it replaced (rotation)
 * @returns one result per origin, in the state's order
 */
export async function checkSignedState(
  db: Kysely<any>,
  state: Record<string, SignedStateEntry>,
  key: { publicKey: Uint8Array; previous?: Uint8Array[] },
  /** `LEDGER_ORIGIN`, the configured prefix, when set. */
  configuredPrefix?: string,
): Promise<SignedStateCheck[]> {
  const logs = await (db as Kysely<LedgerTables>)
    .selectFrom('ledger_log')
    .innerJoin('ledger_channel', 'ledger_channel.id', 'ledger_log.channelId')
    .select(['ledger_log.origin', 'ledger_channel.id', 'ledger_channel.name'])
    .execute();
  const tree = new TreeStore(db);
  const prefixes = new Set(logs.map((l) => l.origin.slice(0, -l.name.length - 1)));
  if (configuredPrefix) prefixes.add(configuredPrefix);
  const out: SignedStateCheck[] = [];
  for (const [origin, e] of Object.entries(state)) {
    const log = logs.find((l) => l.origin === origin);
    const base = { origin, channel: log?.name ?? null, signedSize: e.size, checked: true };
    if (!log && ![...prefixes].some((p) => origin.startsWith(`${p}/`))) {
      out.push({
        ...base,
        ok: true,
        checked: false,
        logSize: 0,
        message: `${origin}: not a log of this database (another origin prefix), not checked`,
      });
      continue;
    }
    const named = (publicKey: Uint8Array) => ({ name: origin, publicKey });
    const v = await verifyCheckpointNoteByAny(e.note, named(key.publicKey), (key.previous ?? []).map(named));
    if (
      !v.ok ||
      v.checkpoint.origin !== origin ||
      v.checkpoint.size !== e.size ||
      v.checkpoint.rootHash !== e.rootHash
    ) {
      out.push({
        ...base,
        ok: false,
        kind: 'signature',
        logSize: 0,
        message: `${origin}: the last signed checkpoint's note does not verify with the log's key or does not name its size and root (${v.ok ? 'another checkpoint' : v.message})`,
      });
      continue;
    }
    const size = log ? ((await tree.head(log.id))?.size ?? 0) : 0;
    const at = { ...base, logSize: size };
    if (size < e.size) {
      out.push({
        ...at,
        ok: false,
        kind: 'rollback',
        message: `rollback: the log has ${size} entries, the last signed checkpoint has ${e.size} (${origin})`,
      });
      continue;
    }
    let consistent = false;
    try {
      // From the stored hashes, O(log n) of them (the signer's own reads): the head's root is their tree
      // hash, not the stored root, which a forger may have written apart.
      if (!log) throw new Error('no log');
      const proof = await tree.consistencyProof(log.id, size, e.size, db);
      const root = await tree.treeHashAt(log.id, size, db);
      consistent = checkTree(proof, size, fromHex(root), e.size, fromHex(e.rootHash));
    } catch {
      consistent = false;
    }
    out.push(
      consistent
        ? {
            ...at,
            ok: true,
            message: `${origin}: the log of ${size} entries extends the last signed checkpoint (${e.size} entries, root ${e.rootHash})`,
          }
        : {
            ...at,
            ok: false,
            kind: 'fork',
            message: `fork: the log of ${size} entries does not extend the last signed checkpoint (${e.size} entries, root ${e.rootHash}) of ${origin}`,
          },
    );
  }
  return out;
}
