/**
 * The witness's state (C2SP tlog-witness: "the witness is only required to keep track of the latest
 * checkpoint it observed and verified" per log), in its own SQLite file (better-sqlite3, WAL):
 *
 * - `witness_log(origin PRIMARY KEY, size, rootHash, note, updatedAt)`: the latest cosigned checkpoint
 *   of each log (size in entries, root hash lowercase hex, the note as the log signed it);
 * - `witness_refusal(id, origin, at, status, reason, body)`: every refused request of a known log whose
 *   signature verified (a 409, 422 or 400), kept as evidence of misbehaviour (the spec allows it).
 *
 * `advance` is the atomic compare-and-swap the spec requires: in one IMMEDIATE transaction it checks that
 * the stored size and root hash are still those the request was verified against and stores the new
 * checkpoint, so two concurrent requests can never roll the state back.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';

/** The latest cosigned checkpoint of one log. */
export interface LogState {
  origin: string;
  size: number;
  /** Lowercase hex of the 32-byte root hash. */
  rootHash: string;
  /** The note as the log signed it, followed by the cosignature this witness answered. */
  note: string;
  updatedAt: string;
}

/** A refused request of a known log. */
export interface Refusal {
  id: number;
  origin: string;
  at: string;
  status: number;
  reason: string;
  body: string;
}

/** The witness's SQLite state file. */
export class WitnessStore {
  private readonly db: SQLite.Database;

  /** Opens (creating) the state file; `:memory:` for a throw-away store. */
  constructor(file: string) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.db = new SQLite(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS witness_log (
        origin TEXT PRIMARY KEY,
        size INTEGER NOT NULL,
        rootHash TEXT NOT NULL,
        note TEXT NOT NULL,
        updatedAt TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS witness_refusal (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        origin TEXT NOT NULL,
        at TEXT NOT NULL,
        status INTEGER NOT NULL,
        reason TEXT NOT NULL,
        body TEXT NOT NULL
      );`);
  }

  /** The latest cosigned checkpoint of `origin`, or undefined when it never cosigned one. */
  get(origin: string): LogState | undefined {
    return this.db.prepare('SELECT * FROM witness_log WHERE origin = ?').get(origin) as LogState | undefined;
  }

  /**
   * Stores `next` as the latest checkpoint of `next.origin` if the stored one is still `expected`
   * (undefined: none stored). Answers false, storing nothing, when another request changed it first.
   */
  advance(
    expected: { size: number; rootHash: string } | undefined,
    next: Omit<LogState, 'updatedAt'>,
  ): boolean {
    const run = this.db.transaction((): boolean => {
      const cur = this.get(next.origin);
      if (
        expected === undefined
          ? cur !== undefined
          : !cur || cur.size !== expected.size || cur.rootHash !== expected.rootHash
      )
        return false;
      this.db
        .prepare(
          `INSERT INTO witness_log (origin, size, rootHash, note, updatedAt) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (origin) DO UPDATE SET size = excluded.size, rootHash = excluded.rootHash,
             note = excluded.note, updatedAt = excluded.updatedAt`,
        )
        .run(next.origin, next.size, next.rootHash, next.note, new Date().toISOString());
      return true;
    });
    return run.immediate();
  }

  /** Keeps a refused request as evidence. */
  refuse(r: Omit<Refusal, 'id' | 'at'>): void {
    this.db
      .prepare('INSERT INTO witness_refusal (origin, at, status, reason, body) VALUES (?, ?, ?, ?, ?)')
      .run(r.origin, new Date().toISOString(), r.status, r.reason, r.body.slice(0, 65536));
  }

  /** The refusals of `origin`, newest first (at most `limit`). */
  refusals(origin: string, limit = 100): Refusal[] {
    return this.db
      .prepare('SELECT * FROM witness_refusal WHERE origin = ? ORDER BY id DESC LIMIT ?')
      .all(origin, limit) as Refusal[];
  }

  close(): void {
    this.db.close();
  }
}
