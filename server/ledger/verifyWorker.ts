/**
 * Worker thread of `verifyLedger` (verify.ts): opens the SQLite file `workerData.file` read-only and
 * answers each `{index, chunk}` message with `{index, result}` (verifyChunk over its own connection).
 * Posts `{}` once ready, asking for its first chunk.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { sqliteChunkReader, verifyChunk, type Chunk } from './verifyChunk';

const db = new SQLite((workerData as { file: string }).file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const read = sqliteChunkReader(db);

parentPort!.on('message', (m: { index: number; chunk: Chunk }) => {
  parentPort!.postMessage({ index: m.index, result: verifyChunk(m.chunk, read(m.chunk)) });
});
parentPort!.postMessage({});
