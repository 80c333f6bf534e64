/**
 * The witness protocol's wire formats, browser-safe (no node imports), shared by the log (which pushes
 * checkpoints, server/ledger/witnessPush.ts), our witness server (server/witness/) and every verifier:
 *
 * - cosigner verifier keys (C2SP `tlog-cosignature`, https://c2sp.org/tlog-cosignature): vkey
 *   `<name>+<hex key ID>+<base64(0x04 ‖ 32-byte Ed25519 public key)>`, key ID = first 4 bytes of
 *   SHA-256(name ‖ 0x0A ‖ 0x04 ‖ public key);
 * - the `add-checkpoint` request body (C2SP `tlog-witness`, https://c2sp.org/tlog-witness): `old <size>`,
 *   at most 63 consistency proof lines (standard base64 of 32-byte hashes), an empty line, then the signed
 *   checkpoint note;
 * - the verification of the cosignatures a note carries against known witnesses.
 */
import { concatBytes, toHex } from './hex';
import {
  checkKeyName,
  COSIGNATURE_TYPE,
  ED25519_TYPE,
  fromBase64,
  noteKeyId,
  splitNote,
  toBase64,
  verifyCosignature,
} from './note';

/** The most consistency proof lines an add-checkpoint request may carry (tlog-witness). */
export const MAX_PROOF_LINES = 63;

/** A parsed verifier key (signed-note vkey). */
export interface Vkey {
  name: string;
  /** Key ID, 8 lowercase hex digits. */
  keyId: string;
  /** Signature type byte: 0x01 Ed25519 note signer, 0x04 Ed25519 cosigner (tlog-cosignature v1). */
  type: number;
  /** The 32-byte Ed25519 public key. */
  publicKey: Uint8Array;
  /** The vkey text as given. */
  text: string;
}

/** The vkey text of an Ed25519 key of `type` (0x01 note signer, 0x04 cosigner). */
export async function formatVkey(name: string, publicKey: Uint8Array, type: number): Promise<string> {
  checkKeyName(name);
  const id = toHex(await noteKeyId(name, publicKey, type));
  return `${name}+${id}+${toBase64(concatBytes(Uint8Array.of(type), publicKey))}`;
}

/** The vkey of a witness (cosigner, type 0x04). */
export function cosignerVkey(name: string, publicKey: Uint8Array): Promise<string> {
  return formatVkey(name, publicKey, COSIGNATURE_TYPE);
}

/**
 * Parses a vkey of an Ed25519 note signer (0x01) or cosigner (0x04) and checks its key ID.
 * @throws Error saying what is wrong (shape, type, length, key ID).
 */
export async function parseVkey(text: string, allowed = [ED25519_TYPE, COSIGNATURE_TYPE]): Promise<Vkey> {
  const m = /^([^\s+]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)$/.exec(text.trim());
  if (!m) throw new Error(`verifier key "${text.slice(0, 80)}" must be <name>+<8 hex>+<base64>`);
  const raw = fromBase64(m[3]);
  if (!allowed.includes(raw[0]))
    throw new Error(
      `verifier key ${m[1]} has signature type 0x${(raw[0] ?? 0).toString(16).padStart(2, '0')}, expected ${allowed.map((t) => `0x0${t}`).join(' or ')}`,
    );
  if (raw.length !== 33) throw new Error(`verifier key ${m[1]} is not a 32-byte Ed25519 key`);
  const publicKey = raw.slice(1);
  if (toHex(await noteKeyId(m[1], publicKey, raw[0])) !== m[2])
    throw new Error(`verifier key ${m[1]}: the key ID ${m[2]} does not match the key`);
  return { name: m[1], keyId: m[2], type: raw[0], publicKey, text: text.trim() };
}

/** An add-checkpoint request (tlog-witness). */
export interface AddCheckpoint {
  /** The size of the previous checkpoint the log believes the witness holds. */
  oldSize: number;
  /** The RFC 6962 consistency proof from `oldSize` to the checkpoint's size, 32-byte hashes. */
  proof: Uint8Array[];
  /** The signed checkpoint note, verbatim. */
  note: string;
}

/** The request body of add-checkpoint. @throws Error when the proof is too long or a hash is not 32 bytes. */
export function formatAddCheckpoint(r: AddCheckpoint): string {
  if (!Number.isSafeInteger(r.oldSize) || r.oldSize < 0) throw new Error('old size must be an integer >= 0');
  if (r.proof.length > MAX_PROOF_LINES)
    throw new Error(`a consistency proof has at most ${MAX_PROOF_LINES} hashes`);
  for (const h of r.proof) if (h.length !== 32) throw new Error('a proof hash is 32 bytes');
  return `old ${r.oldSize}\n${r.proof.map((h) => `${toBase64(h)}\n`).join('')}\n${r.note}`;
}

/**
 * Parses an add-checkpoint body. Only the framing is checked here (the witness answers 400 for any of
 * these errors); the note's signature and the proof are checked by the witness.
 * @throws Error naming the malformed line.
 */
export function parseAddCheckpoint(body: string): AddCheckpoint {
  const first = body.indexOf('\n');
  if (first < 0) throw new Error('the body must start with an "old <size>" line');
  const m = /^old (0|[1-9][0-9]*)$/.exec(body.slice(0, first));
  if (!m) throw new Error(`first line must be "old <size>" in decimal, got "${body.slice(0, first)}"`);
  const oldSize = Number(m[1]);
  if (!Number.isSafeInteger(oldSize)) throw new Error('old size is too large');
  const proof: Uint8Array[] = [];
  let at = first + 1;
  for (;;) {
    const end = body.indexOf('\n', at);
    if (end < 0) throw new Error('no empty line between the proof and the checkpoint');
    const line = body.slice(at, end);
    at = end + 1;
    if (line === '') break;
    if (proof.length === MAX_PROOF_LINES)
      throw new Error(`a consistency proof has at most ${MAX_PROOF_LINES} lines`);
    let hash: Uint8Array;
    try {
      hash = fromBase64(line);
    } catch {
      throw new Error(`proof line ${proof.length + 1} is not base64`);
    }
    if (hash.length !== 32) throw new Error(`proof line ${proof.length + 1} is not a 32-byte hash`);
    proof.push(hash);
  }
  const note = body.slice(at);
  splitNote(note); // throws when the rest is not a signed note
  return { oldSize, proof, note };
}

/** A witness a verifier knows: its name and Ed25519 cosigner key. */
export interface KnownWitness {
  name: string;
  publicKey: Uint8Array;
}

/** One verified cosignature. */
export interface VerifiedCosignature {
  name: string;
  /** Its timestamp, Unix seconds. */
  time: number;
}

/**
 * The witnesses among `known` whose cosignature on `note` verifies (tlog-cosignature v1); lines of
 * unknown keys are ignored, as the spec requires. Never throws (a malformed note verifies nobody).
 */
export async function verifiedCosigners(note: string, known: KnownWitness[]): Promise<VerifiedCosignature[]> {
  const out: VerifiedCosignature[] = [];
  for (const w of known) {
    const r = await verifyCosignature(note, w);
    if (r.ok) out.push({ name: w.name, time: r.time });
  }
  return out;
}

/**
 * The signature lines of a witness's add-checkpoint answer that verify as cosignatures of `witness` on
 * `note` (the note as sent). Answers the lines (each ending in `\n`) and their time.
 * @throws Error when the answer carries no valid cosignature of that witness.
 */
export async function acceptCosignatures(
  note: string,
  answer: string,
  witness: KnownWitness,
): Promise<{ lines: string[]; time: number }> {
  const lines = answer
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => `${l}\n`);
  if (lines.length === 0 || lines.some((l) => !l.startsWith('\u2014 ')))
    throw new Error('the answer is not a list of signature lines');
  const good: string[] = [];
  let time = 0;
  for (const line of lines) {
    const r = await verifyCosignature(note + line, witness);
    if (r.ok) {
      good.push(line);
      time = r.time;
    }
  }
  if (good.length === 0) throw new Error(`no valid cosignature of ${witness.name} in the answer`);
  return { lines: good, time };
}
