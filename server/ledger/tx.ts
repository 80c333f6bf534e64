/**
 * Hashing of transactions and headers on the server (node:crypto): the transaction's canonical form,
 * its leaf hash, the block hash, and Fabric-style transaction ids (docs/ledger.md sections 1-3).
 */
import { randomFillSync } from 'node:crypto';
import { canonicalJson } from '../../common/ledger/canonical';
import { encodeHeader } from '../../common/ledger/der';
import { fromHex, toHex } from '../../common/ledger/hex';
import { sha256, sha256Buffer } from './merkle';
import type { BlockHeader, Transaction } from '../../common/ledger/types';

/** The transaction reduced to exactly its eight hashed fields (extra properties are dropped). */
export function txBody(tx: Transaction): Transaction {
  return {
    txId: tx.txId,
    channel: tx.channel,
    chaincode: tx.chaincode,
    function: tx.function,
    args: [...tx.args],
    creator: tx.creator,
    timestamp: tx.timestamp,
    validationCode: tx.validationCode,
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

/** `txLeafHash` as a Buffer (no copy). The 0x00 prefix is U+0000, one byte in UTF-8. */
export function txLeafBuffer(tx: Transaction): Buffer {
  return sha256Buffer(Buffer.from(`\u0000${txCanonicalJson(tx)}`, 'utf8'));
}

/** `txLeafHash` as lowercase hex (the stored `leafHash`). */
export function txLeafHex(tx: Transaction): string {
  return txLeafBuffer(tx).toString('hex');
}

const HEX_RE = /^(?:[0-9a-fA-F]{2})*$/;

/** Hex as bytes (native decoding); `fromHex` names anything that is not hex. */
function hexBytes(hex: string): Uint8Array {
  return HEX_RE.test(hex) ? Buffer.from(hex, 'hex') : fromHex(hex);
}

/** Block hash (hex) = SHA-256 of the DER header. @throws Error when a hash field is not hex. */
export function blockHashHex(header: BlockHeader): string {
  return sha256Buffer(
    encodeHeader({
      number: header.number,
      previousHash: hexBytes(header.previousHash),
      dataHash: hexBytes(header.dataHash),
    }),
  ).toString('hex');
}

/** SHA-256 hex of UTF-8 text or bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return toHex(sha256(typeof data === 'string' ? new TextEncoder().encode(data) : data));
}

/** Random nonces are drawn 24 bytes at a time from a pool refilled by one `randomFillSync` per 1,024. */
const NONCE = 24;
const noncePool = Buffer.alloc(NONCE * 1024);
let nonceAt = noncePool.length;
/** The bytes a transaction id hashes (nonce ‖ creator), reused while the creator is the same. */
let idInput = Buffer.alloc(0);
let idCreator: string | undefined;

/** Fabric's transaction id rule: hex SHA-256 of (24-byte random nonce ‖ creator UTF-8). */
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
  return sha256Buffer(idInput).toString('hex');
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
