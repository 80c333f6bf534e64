/**
 * A transaction's hashed form (docs/ledger.md section 1): exactly its eight fields, the object whose
 * canonical JSON (RFC 8785, canonical.ts) is the log entry and, prefixed with 0x00, its leaf hash input
 * (RFC 6962 section 2.1). Shared by the server (server/ledger/tx.ts) and the browser (webVerify.ts).
 */
import type { Transaction } from './types';

/** The transaction reduced to exactly its eight hashed fields (extra properties are dropped, args copied). */
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
