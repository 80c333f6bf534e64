/**
 * Hashing of transactions and headers on the server (node:crypto): the transaction's canonical form,
 * its leaf hash, the block hash, and Fabric-style transaction ids (docs/ledger.md sections 1-3).
 */
import { randomBytes } from 'node:crypto';
import { canonicalBytes } from '../../common/ledger/canonical';
import { encodeHeader } from '../../common/ledger/der';
import { fromHex, toHex } from '../../common/ledger/hex';
import { leafHash, sha256 } from './merkle';
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

/** Leaf hash of a transaction: SHA-256(0x00 ‖ canonical JSON of its eight fields). */
export function txLeafHash(tx: Transaction): Uint8Array {
  return leafHash(canonicalBytes(txBody(tx)));
}

/** Block hash (hex) = SHA-256 of the DER header. */
export function blockHashHex(header: BlockHeader): string {
  return toHex(
    sha256(
      encodeHeader({
        number: header.number,
        previousHash: fromHex(header.previousHash),
        dataHash: fromHex(header.dataHash),
      }),
    ),
  );
}

/** SHA-256 hex of UTF-8 text or bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return toHex(sha256(typeof data === 'string' ? new TextEncoder().encode(data) : data));
}

/** Fabric's transaction id rule: hex SHA-256 of (24-byte random nonce ‖ creator UTF-8). */
export function newTxId(creator: string): string {
  return toHex(sha256(new Uint8Array(randomBytes(24)), new TextEncoder().encode(creator)));
}

/** `YYYY-MM-DD HH:mm:ss.SSS` UTC, the transaction timestamp format. */
export function txTimestamp(date = new Date()): string {
  return date.toISOString().slice(0, 23).replace('T', ' ');
}

/** `YYYY-MM-DD HH:mm:ss` UTC, the block time format (the project's stored time format). */
export function blockTimeText(date = new Date()): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}
