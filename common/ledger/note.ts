/**
 * Signed checkpoints (docs/ledger.md section 10), browser-safe (Web Crypto, no node imports), shared by
 * the server, the public verification page and the witness (server/witness/):
 *
 * - the checkpoint body is a C2SP `tlog-checkpoint` (https://c2sp.org/tlog-checkpoint): origin line,
 *   tree size (decimal: the number of entries of the log, here the channel's transactions), root hash
 *   (standard base64 of the RFC 6962 Merkle tree hash of those entries), then extension lines (here `time <ISO-8601 UTC>`), each line ending in `\n`;
 * - it is signed as a C2SP `signed-note` (https://c2sp.org/signed-note) with Ed25519: after the body, an
 *   empty line, then one line per signature `— <key name> <base64(key ID ‖ signature)>`; key ID = first
 *   4 bytes of SHA-256(name ‖ 0x0A ‖ 0x01 ‖ 32-byte public key), the signature covers the body's bytes;
 * - witnesses add cosignatures in the C2SP `tlog-cosignature` v1 format
 *   (https://c2sp.org/tlog-cosignature): key ID from SHA-256(name ‖ 0x0A ‖ 0x04 ‖ public key), the
 *   signature line's bytes are key ID ‖ 8-byte big-endian Unix time (seconds) ‖ Ed25519 signature of
 *   `cosignature/v1\ntime <seconds>\n` followed by the body.
 *
 * Ed25519 in Web Crypto (`crypto.subtle`, algorithm `Ed25519`) is in Node 20 and current Chromium.
 */
import { concatBytes, fromHex, toHex } from './hex';
import { blockHashWeb } from './webVerify';

/** The em dash (U+2014) that starts a signature line. */
export const SIG_PREFIX = '\u2014 ';
/** Signature types of the key ID hash (signed-note: 0x01 Ed25519; tlog-cosignature: 0x04). */
export const ED25519_TYPE = 0x01;
export const COSIGNATURE_TYPE = 0x04;

const enc = new TextEncoder();

/** Standard base64 (with padding) of bytes. */
export function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
  return btoa(s);
}

/** Bytes of standard base64. @throws Error naming the input when it is not base64. */
export function fromBase64(b64: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0)
    throw new Error(`not standard base64: "${b64.slice(0, 80)}"`);
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

async function sha256(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>));
}

/** A checkpoint (tlog-checkpoint) as data. */
export interface Checkpoint {
  /** Origin line: the log's unique URL-like name, e.g. `registry.example/artchannel` (C2SP tlog-checkpoint). */
  origin: string;
  /** Tree size: the number of entries in the log (C2SP tlog-checkpoint). */
  size: number;
  /** Root hash as lowercase hex: the RFC 6962 Merkle tree hash of the first `size` entries. */
  rootHash: string;
  /** Extension lines without their newline, e.g. `time 2026-11-22T23:00:00.000Z`. */
  extensions: string[];
}

/** The checkpoint body text (each line, the last included, ends with `\n`). @throws Error on a bad field. */
export function formatCheckpoint(c: Checkpoint): string {
  if (!c.origin || /[\n\u2014]/.test(c.origin))
    throw new Error('checkpoint origin must be one non-empty line');
  if (!Number.isSafeInteger(c.size) || c.size < 0) throw new Error('checkpoint size must be an integer >= 0');
  const hash = fromHex(c.rootHash);
  if (hash.length !== 32) throw new Error('checkpoint root hash must be 32 bytes');
  for (const e of c.extensions)
    if (!e || e.includes('\n')) throw new Error('checkpoint extension lines must be non-empty single lines');
  return [c.origin, String(c.size), toBase64(hash), ...c.extensions].map((l) => `${l}\n`).join('');
}

/** Parses a checkpoint body. @throws Error saying which line is malformed. */
export function parseCheckpoint(body: string): Checkpoint {
  if (!body.endsWith('\n')) throw new Error('checkpoint body must end with a newline');
  const lines = body.slice(0, -1).split('\n');
  if (lines.length < 3) throw new Error('checkpoint body needs origin, size and root hash lines');
  const [origin, sizeText, hashText, ...extensions] = lines;
  if (!origin) throw new Error('checkpoint origin line is empty');
  if (!/^(0|[1-9][0-9]*)$/.test(sizeText))
    throw new Error(`checkpoint size line is not a decimal: "${sizeText}"`);
  const hash = fromBase64(hashText);
  if (hash.length !== 32) throw new Error('checkpoint root hash is not 32 bytes');
  if (extensions.some((e) => e === '')) throw new Error('checkpoint extension lines must not be empty');
  return { origin, size: Number(sizeText), rootHash: toHex(hash), extensions };
}

/** The value of the `time` extension line, or undefined. */
export function checkpointTime(c: Checkpoint): string | undefined {
  return c.extensions.find((e) => e.startsWith('time '))?.slice(5);
}

/** Key ID: first 4 bytes of SHA-256(name ‖ 0x0A ‖ type ‖ public key). */
export async function noteKeyId(
  name: string,
  publicKey: Uint8Array,
  type = ED25519_TYPE,
): Promise<Uint8Array> {
  return (await sha256(concatBytes(enc.encode(name), Uint8Array.of(0x0a, type), publicKey))).slice(0, 4);
}

/** Checks a key name: non-empty, no whitespace, no `+` (signed-note rule). */
export function checkKeyName(name: string): void {
  if (!/^[^\s+]+$/.test(name)) throw new Error(`key name "${name}" must be non-empty without spaces or "+"`);
}

/**
 * The verifier key string as Go's `golang.org/x/mod/sumdb/note` writes it:
 * `<name>+<key ID hex>+<base64(0x01 ‖ public key)>`.
 */
export async function verifierKey(name: string, publicKey: Uint8Array): Promise<string> {
  checkKeyName(name);
  return `${name}+${toHex(await noteKeyId(name, publicKey))}+${toBase64(concatBytes(Uint8Array.of(ED25519_TYPE), publicKey))}`;
}

/** Parses a verifier key string. @throws Error when malformed or its key ID does not match. */
export async function parseVerifierKey(vkey: string): Promise<{ name: string; publicKey: Uint8Array }> {
  const m = /^([^\s+]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)$/.exec(vkey);
  if (!m) throw new Error('verifier key must be <name>+<8 hex>+<base64>');
  const raw = fromBase64(m[3]);
  if (raw.length !== 33 || raw[0] !== ED25519_TYPE) throw new Error('verifier key is not an Ed25519 key');
  const publicKey = raw.slice(1);
  if (toHex(await noteKeyId(m[1], publicKey)) !== m[2]) throw new Error('verifier key ID does not match');
  return { name: m[1], publicKey };
}

/** One signature line of a note. */
export interface NoteSignature {
  name: string;
  /** The 4-byte key ID, hex. */
  keyId: string;
  /** The bytes after the key ID (Ed25519: 64-byte signature; cosignature: 8-byte time ‖ signature). */
  signature: Uint8Array;
}

/** Splits a signed note into its body and signature lines. @throws Error when it is not a signed note. */
export function splitNote(text: string): { body: string; signatures: NoteSignature[] } {
  const at = text.lastIndexOf('\n\n');
  if (at < 0 || !text.endsWith('\n'))
    throw new Error('not a signed note: no empty line before the signatures');
  const body = text.slice(0, at + 1);
  const signatures = text
    .slice(at + 2, -1)
    .split('\n')
    .map((line) => {
      const m = /^\u2014 ([^\s+]+) ([A-Za-z0-9+/=]+)$/.exec(line);
      if (!m) throw new Error(`malformed signature line: "${line.slice(0, 120)}"`);
      const raw = fromBase64(m[2]);
      if (raw.length < 5) throw new Error('signature too short');
      return { name: m[1], keyId: toHex(raw.slice(0, 4)), signature: raw.slice(4) };
    });
  if (signatures.length === 0) throw new Error('a signed note needs at least one signature');
  return { body, signatures };
}

/** A signature line for `name` over raw bytes (key ID ‖ payload). */
export function signatureLine(name: string, keyId: Uint8Array, payload: Uint8Array): string {
  return `${SIG_PREFIX}${name} ${toBase64(concatBytes(keyId, payload))}\n`;
}

/** Adds signature lines to a signed note (or a bare body). */
export function addSignatureLines(noteOrBody: string, lines: string[]): string {
  const base = noteOrBody.includes('\n\n') ? noteOrBody : `${noteOrBody}\n`;
  return base + lines.join('');
}

async function importEd25519(publicKey: Uint8Array): Promise<CryptoKey> {
  if (publicKey.length !== 32) throw new Error('an Ed25519 public key is 32 bytes');
  return crypto.subtle.importKey('raw', publicKey as Uint8Array<ArrayBuffer>, { name: 'Ed25519' }, false, [
    'verify',
  ]);
}

async function ed25519Verify(publicKey: Uint8Array, signature: Uint8Array, message: Uint8Array) {
  if (signature.length !== 64) return false;
  const key = await importEd25519(publicKey);
  return crypto.subtle.verify(
    'Ed25519',
    key,
    signature as Uint8Array<ArrayBuffer>,
    message as Uint8Array<ArrayBuffer>,
  );
}

/** The result of checking a note's signature by one key. */
export type NoteCheck =
  | { ok: true; body: string; checkpoint: Checkpoint }
  | { ok: false; reason: 'malformed' | 'no-signature' | 'bad-signature'; message: string };

/**
 * Verifies the signature of `key` on a signed checkpoint note and parses the body.
 * Never throws: a malformed note, a missing or a bad signature is a result.
 */
export async function verifyCheckpointNote(
  text: string,
  key: { name: string; publicKey: Uint8Array },
): Promise<NoteCheck> {
  let split;
  let checkpoint: Checkpoint;
  try {
    split = splitNote(text);
    checkpoint = parseCheckpoint(split.body);
  } catch (err) {
    return { ok: false, reason: 'malformed', message: (err as Error).message };
  }
  const id = toHex(await noteKeyId(key.name, key.publicKey));
  const sig = split.signatures.find((s) => s.name === key.name && s.keyId === id);
  if (!sig)
    return {
      ok: false,
      reason: 'no-signature',
      message: `the note carries no signature of key ${key.name}+${id}`,
    };
  if (!(await ed25519Verify(key.publicKey, sig.signature, enc.encode(split.body))))
    return {
      ok: false,
      reason: 'bad-signature',
      message: `the signature of ${key.name} on the checkpoint is not valid`,
    };
  return { ok: true, body: split.body, checkpoint };
}

/**
 * `verifyCheckpointNote` with the log's current key, then each of its previous keys (a rotated key,
 * docs/ledger.md section 10: checkpoints signed before the rotation carry only the old key's signature).
 * The first key that verifies wins; otherwise the current key's failure.
 */
export async function verifyCheckpointNoteByAny(
  text: string,
  key: { name: string; publicKey: Uint8Array },
  previous: { name: string; publicKey: Uint8Array }[] = [],
): Promise<NoteCheck> {
  const first = await verifyCheckpointNote(text, key);
  if (first.ok) return first;
  for (const k of previous) {
    const v = await verifyCheckpointNote(text, k);
    if (v.ok) return v;
  }
  return first;
}

/** The message a witness signs (tlog-cosignature v1): `cosignature/v1\ntime <t>\n` ‖ body. */
export function cosignatureMessage(body: string, time: number): Uint8Array {
  return enc.encode(`cosignature/v1\ntime ${time}\n${body}`);
}

/** 8-byte big-endian encoding of a Unix time in seconds. */
export function timeBytes(time: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(time));
  return out;
}

/**
 * Verifies the cosignature of witness `key` on a note; answers its time (Unix seconds).
 * Never throws.
 */
export async function verifyCosignature(
  text: string,
  key: { name: string; publicKey: Uint8Array },
): Promise<{ ok: true; time: number; checkpoint: Checkpoint } | { ok: false; message: string }> {
  try {
    const { body, signatures } = splitNote(text);
    const checkpoint = parseCheckpoint(body);
    const id = toHex(await noteKeyId(key.name, key.publicKey, COSIGNATURE_TYPE));
    const sig = signatures.find((s) => s.name === key.name && s.keyId === id);
    if (!sig) return { ok: false, message: `the note carries no cosignature of witness ${key.name}` };
    if (sig.signature.length !== 72) return { ok: false, message: 'a cosignature is 8 + 64 bytes' };
    const time = Number(new DataView(sig.signature.buffer, sig.signature.byteOffset).getBigUint64(0));
    const ok = await ed25519Verify(key.publicKey, sig.signature.slice(8), cosignatureMessage(body, time));
    return ok
      ? { ok: true, time, checkpoint }
      : { ok: false, message: `the cosignature of witness ${key.name} is not valid` };
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
}

/** A block header as the legacy header-chain consistency check reads it (`checkConsistency`). */
export interface LinkHeader {
  number: number;
  previousHash: string;
  dataHash: string;
}

/** Why two checkpoints are not consistent. */
export type ConsistencyCheck =
  | { ok: true }
  | {
      ok: false;
      kind: 'rollback' | 'fork' | 'gap';
      message: string;
      /** The recomputed value. */
      expected?: string;
      found?: string;
      blockNumber?: number;
    };

/**
 * Legacy check, for the block-height checkpoints signed before the ledger became a Merkle log
 * (`ledger_block_checkpoint`, where size = number of blocks and root hash = head block hash); C2SP
 * checkpoints are checked with an RFC 6962 consistency proof (tlog.ts `checkTree`). Checks that
 * checkpoint `to` extends checkpoint `from` (same origin) through `headers`, the block headers numbered `from.size − 1` .. `to.size − 1`: the first recomputes to `from`'s root hash, each
 * next one's previous hash is the recomputed hash before it, and the last recomputes to `to`'s root hash
 * (docs/ledger.md section 10). A smaller size is a rollback; the same size with another hash, or a broken
 * link, a fork; a missing header a gap.
 */
export async function checkConsistency(
  from: Checkpoint,
  to: Checkpoint,
  headers: LinkHeader[],
): Promise<ConsistencyCheck> {
  if (from.origin !== to.origin)
    return { ok: false, kind: 'fork', message: `origin changed from "${from.origin}" to "${to.origin}"` };
  if (to.size < from.size)
    return {
      ok: false,
      kind: 'rollback',
      message: `the log shrank from size ${from.size} to ${to.size}`,
      expected: `>= ${from.size}`,
      found: String(to.size),
    };
  if (to.size === from.size)
    return to.rootHash === from.rootHash
      ? { ok: true }
      : {
          ok: false,
          kind: 'fork',
          message: `two different heads at size ${to.size}`,
          expected: from.rootHash,
          found: to.rootHash,
          blockNumber: to.size - 1,
        };
  let previous: string | undefined;
  for (let n = from.size - 1, i = 0; n <= to.size - 1; n++, i++) {
    const h = headers[i];
    if (!h || h.number !== n)
      return {
        ok: false,
        kind: 'gap',
        message: `header of block ${n} missing from the consistency proof`,
        expected: String(n),
        found: h ? String(h.number) : 'none',
        blockNumber: n,
      };
    if (previous !== undefined && h.previousHash !== previous)
      return {
        ok: false,
        kind: 'fork',
        message: `block ${n} does not link to block ${n - 1}`,
        expected: previous,
        found: h.previousHash,
        blockNumber: n,
      };
    const hash = await blockHashWeb(h);
    if (n === from.size - 1 && hash !== from.rootHash)
      return {
        ok: false,
        kind: 'fork',
        message: `block ${n} no longer hashes to the head of the earlier checkpoint`,
        expected: hash,
        found: from.rootHash,
        blockNumber: n,
      };
    previous = hash;
  }
  if (previous !== to.rootHash)
    return {
      ok: false,
      kind: 'fork',
      message: `the headers do not lead to the new checkpoint's head`,
      expected: previous,
      found: to.rootHash,
      blockNumber: to.size - 1,
    };
  return { ok: true };
}

/** SHA-256 hex (Web Crypto), e.g. the fingerprint of a key's SPKI DER bytes. */
export async function sha256Hex(data: Uint8Array): Promise<string> {
  return toHex(await sha256(data));
}
