/**
 * Hashing of transactions and headers on the server (node:crypto): the transaction's canonical form,
 * its leaf hash, the block hash, and Fabric-style transaction ids (docs/ledger.md sections 1-3).
 */
import { randomFillSync } from 'node:crypto';
import { canonicalJson } from '../../common/ledger/canonical';
import { txBody } from '../../common/ledger/txBody';
import { encodeHeader } from '../../common/ledger/der';
import { fromHex } from '../../common/ledger/hex';
import { sha256Buffer, sha256Hex } from './merkle';
import type { BlockHeader, Transaction } from '../../common/ledger/types';
import type { LedgerTxColumns } from './tables';

/** Re-exported: the hashed form lives in common/ledger/txBody.ts, shared with the browser. */
export { txBody };

/**
 * The transaction of its stored columns (`ledger_pending` or `ledger_tx`, tables.ts) on channel `channel`
 * (stored as an id): args parsed from their JSON text, the validation code as a number.
 */
export function storedTx(row: LedgerTxColumns, channel: string): Transaction {
  return {
    txId: row.txId,
    channel,
    chaincode: row.chaincode,
    function: row.function,
    args: JSON.parse(row.args) as string[],
    creator: row.creator,
    timestamp: row.timestamp,
    validationCode: Number(row.validationCode),
  };
}

const q = JSON.stringify;

/**
 * The canonical JSON (RFC 8785, common/ledger/canonical.ts) of a transaction's eight hashed fields,
 * written directly for this fixed shape: keys in UTF-16 order (args, chaincode, channel, creator,
 * function, timestamp, txId, validationCode), strings as JSON.stringify writes them, which is what
 * RFC 8785 prescribes. Any other shape (a non-string argument, a non-finite code) goes through the
 * generic `canonicalJson`, which names the bad field. Same text as `canonicalJson(txBody(tx))`
 * (tested in tx.test.ts), several times faster: hashing is on the ledger's hot path.
 */
export function txCanonicalJson(tx: Transaction): string {
  const { args } = tx;
  let ok =
    Array.isArray(args) &&
    typeof tx.chaincode === 'string' &&
    typeof tx.channel === 'string' &&
    typeof tx.creator === 'string' &&
    typeof tx.function === 'string' &&
    typeof tx.timestamp === 'string' &&
    typeof tx.txId === 'string' &&
    typeof tx.validationCode === 'number' &&
    Number.isFinite(tx.validationCode);
  if (ok) for (let i = 0; i < args.length; i++) if (typeof args[i] !== 'string') ok = false;
  if (!ok) return canonicalJson(txBody(tx));
  return `{"args":${q(args)},"chaincode":${q(tx.chaincode)},"channel":${q(tx.channel)},"creator":${q(tx.creator)},"function":${q(tx.function)},"timestamp":${q(tx.timestamp)},"txId":${q(tx.txId)},"validationCode":${q(tx.validationCode)}}`;
}

/** Leaf hash of a transaction: SHA-256(0x00 ‖ canonical JSON of its eight fields). */
export function txLeafHash(tx: Transaction): Uint8Array {
  return new Uint8Array(txLeafBuffer(tx));
}

/** `txLeafHash` as a Buffer. */
export function txLeafBuffer(tx: Transaction): Buffer {
  return Buffer.from(txLeafHex(tx), 'hex');
}

/**
 * Leaf hash (hex) of a stored transaction row (ledger_tx), without parsing its `args` column: the column's
 * text is put in the canonical JSON as stored. The pipeline stores `JSON.stringify(args)` of an array of
 * strings, which is exactly its canonical form (RFC 8785 writes strings as JSON.stringify does), so an
 * untouched row hashes to its recorded leaf; any other text (edited, reformatted, not JSON) gives
 * another hash, and the verification reports the row. Text placed raw cannot pass for other field
 * values: every later field is written after it with its key and JSON quoting, and a key text cannot
 * occur inside a JSON string (its quotes would be escaped).
 */
export function storedTxLeafHex(
  txId: string,
  channel: string,
  chaincode: string,
  fn: string,
  argsJson: string,
  creator: string,
  timestamp: string,
  validationCode: number,
): string {
  return sha256Hex(
    `\u0000{"args":${argsJson},"chaincode":${q(chaincode)},"channel":${q(channel)},"creator":${q(creator)},"function":${q(fn)},"timestamp":${q(timestamp)},"txId":${q(txId)},"validationCode":${q(validationCode)}}`,
  );
}

/**
 * `txLeafHash` as lowercase hex (the stored `leafHash`), hashed straight from the text (the 0x00 prefix
 * is U+0000, one byte in UTF-8).
 */
export function txLeafHex(tx: Transaction): string {
  return sha256Hex(`\u0000${txCanonicalJson(tx)}`);
}

const HEX_RE = /^(?:[0-9a-fA-F]{2})*$/;

/** Hex as bytes (native decoding); `fromHex` names anything that is not hex. */
function hexBytes(hex: string): Uint8Array {
  return HEX_RE.test(hex) ? Buffer.from(hex, 'hex') : fromHex(hex);
}

/** The DER header of the fast path, reused: at most 2 + (2 + 8) + 34 + 34 = 80 bytes. */
const headerBytes = Buffer.alloc(80);

/**
 * The DER header (docs/ledger.md section 2) written straight into `headerBytes` for the usual shape (a
 * safe non-negative number, a previous hash of 0 or 32 bytes, a 32-byte data hash, all hex); answers
 * its length, or 0 when the header has another shape (the generic `encodeHeader` then names the error).
 * Every length is below 128, so each is one byte. Same bytes as `encodeHeader` (tested in tx.test.ts).
 */
function writeHeader(number: number, previousHash: string, dataHash: string): number {
  if (!Number.isSafeInteger(number) || number < 0) return 0;
  if ((previousHash.length !== 0 && previousHash.length !== 64) || dataHash.length !== 64) return 0;
  // INTEGER: minimal big-endian bytes, a leading 0x00 when the top bit is set.
  let intLen = 1;
  for (let n = Math.floor(number / 256); n > 0; n = Math.floor(n / 256)) intLen++;
  const top = Math.floor(number / 256 ** (intLen - 1));
  const pad = top & 0x80 ? 1 : 0;
  const b = headerBytes;
  let at = 2;
  b[at++] = 0x02;
  b[at++] = intLen + pad;
  if (pad) b[at++] = 0;
  for (let i = intLen - 1, n = number; i >= 0; i--, n = Math.floor(n / 256)) b[at + i] = n % 256;
  at += intLen;
  b[at++] = 0x04;
  b[at++] = previousHash.length / 2;
  if (previousHash.length && b.write(previousHash, at, 32, 'hex') !== 32) return 0;
  at += previousHash.length / 2;
  b[at++] = 0x04;
  b[at++] = 32;
  if (b.write(dataHash, at, 32, 'hex') !== 32) return 0;
  at += 32;
  b[0] = 0x30;
  b[1] = at - 2;
  return at;
}

/** Block hash (hex) = SHA-256 of the DER header. @throws Error when a hash field is not hex. */
export function blockHashHex(header: BlockHeader): string {
  const n = writeHeader(header.number, header.previousHash, header.dataHash);
  if (n) return sha256Hex(headerBytes.subarray(0, n));
  return sha256Buffer(
    encodeHeader({
      number: header.number,
      previousHash: hexBytes(header.previousHash),
      dataHash: hexBytes(header.dataHash),
    }),
  ).toString('hex');
}

/** SHA-256 hex of UTF-8 text or bytes (server/ledger/merkle.ts), here beside the ledger's other hashes. */
export { sha256Hex };

/** Random nonces are drawn 24 bytes at a time from a pool refilled by one `randomFillSync` per 1,024. */
const NONCE = 24;
const noncePool = Buffer.alloc(NONCE * 1024);
let nonceAt = noncePool.length;
/** The bytes a transaction id hashes (nonce ‖ creator), reused while the creator is the same. */
let idInput = Buffer.alloc(0);
let idCreator: string | undefined;
/** The last id prefix handed out: Unix milliseconds and a counter within them (see {@link newTxId}). */
let idMs = 0;
let idCount = 0;

/**
 * A new transaction id: 64 lowercase hex digits, time-ordered then random.
 * - Digits 1-16: a 64-bit prefix that only grows within a process: 48 bits of Unix time in milliseconds
 *   and a 16-bit counter within that millisecond (RFC 9562 section 6.2, method 1, as UUIDv7 does;
 *   when the counter is spent, or the clock steps back, the prefix takes the next millisecond).
 * - Digits 17-64: the first 24 bytes of Fabric's id, SHA-256 of (24-byte random nonce ‖ creator UTF-8).
 * Why not Fabric's id alone: a random key puts every insert on a random leaf of the `txId` index, about
 * one database page written per transaction at each commit; ids that grow land on the index's last leaf
 * (RFC 9562 section 6.2 gives the same reason for UUIDv7). Uniqueness rests on the 192 random bits.
 */
export function newTxId(creator: string): string {
  if (nonceAt === noncePool.length) {
    randomFillSync(noncePool);
    nonceAt = 0;
  }
  if (creator !== idCreator) {
    idInput = Buffer.concat([Buffer.alloc(NONCE), Buffer.from(creator, 'utf8')]);
    idCreator = creator;
  }
  noncePool.copy(idInput, 0, nonceAt, nonceAt + NONCE);
  nonceAt += NONCE;
  const now = Date.now();
  if (now > idMs) [idMs, idCount] = [now, 0];
  else if (++idCount > 0xffff) [idMs, idCount] = [idMs + 1, 0];
  return (
    idMs.toString(16).padStart(12, '0') +
    idCount.toString(16).padStart(4, '0') +
    sha256Hex(idInput).slice(0, 48)
  );
}

let stampMs = NaN;
let stampText = '';

/** `YYYY-MM-DD HH:mm:ss.SSS` UTC, the transaction timestamp format (formatted once per millisecond). */
export function txTimestamp(date?: Date): string {
  if (date) return date.toISOString().slice(0, 23).replace('T', ' ');
  const ms = Date.now();
  if (ms !== stampMs) {
    stampMs = ms;
    stampText = new Date(ms).toISOString().slice(0, 23).replace('T', ' ');
  }
  return stampText;
}

/** `YYYY-MM-DD HH:mm:ss` UTC, the block time format (the project's stored time format). */
export function blockTimeText(date = new Date()): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}
