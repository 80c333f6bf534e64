/**
 * Cheap list totals: the total of each distinct list query (filters, free text) is counted once and
 * answered from memory until the database changes, instead of a full `count(*)` on every page.
 *
 * "The database changed" is read from the database itself, so that every write counts, whoever makes it
 * (the generic repository, the ledger marking records on chain, an import in another process, another
 * server instance on the same PostgreSQL):
 * - SQLite: `total_changes()` (rows written by this connection, triggers included) and `PRAGMA
 *   data_version` (changes when another connection commits to the file); SQLite docs, "total_changes()"
 *   and "PRAGMA data_version".
 * - PostgreSQL: the change generation of server/db/pgChanges.ts (LISTEN/NOTIFY and this process's own
 *   writes), read from memory: no statement (issue 20 item 6: a statement per call for the version cost
 *   as much as the page's). Where it is not known (the listener down, a database opened without the
 *   server's plugin), `pg_current_snapshot()` (xmin:xmax:in-progress list): two equal snapshots see exactly
 *   the same committed transactions (MVCC visibility), so a total counted under one holds under the
 *   other; any write transaction that starts or ends changes it (PostgreSQL docs, "Snapshot Information
 *   Functions"), in the whole cluster.
 * The version is read before counting, so a write that lands between the two only makes the entry stale
 * sooner (a miss), never wrong. Inside a transaction (which may hold its own uncommitted writes) nothing
 * is cached. The repository also clears a resource's entries after each of its own writes.
 */
import type { Kysely } from 'kysely';
import { readQuery } from '../../server/db/connect';
import { changeGeneration } from '../../server/db/pgChanges';

/** Entries kept per resource (least recently used dropped first). */
const MAX_ENTRIES = 1000;

/** The database's change marker (see the module doc): equal markers, same data. */
export async function dataVersion(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<string> {
  const generation = dialect === 'postgres' ? changeGeneration(db) : undefined;
  if (generation !== undefined) return `g${generation}`;
  const rows = await readQuery<{ v: string }>(db, dialect === 'postgres' ? PG_VERSION : SQLITE_VERSION, []);
  return String(rows[0].v);
}

const SQLITE_VERSION = `select total_changes() || ':' || (select data_version from pragma_data_version) as v`;
const PG_VERSION = 'select pg_current_snapshot()::text as v';

/** The totals of one resource's list queries, by query key (see the module doc). */
export class CountCache {
  private readonly entries = new Map<string, { version: string; total: number }>();

  constructor(private readonly dialect: 'sqlite' | 'postgres') {}

  /**
   * The total for `key`: remembered when the database is unchanged since it was counted, else `count()`
   * (then remembered). Inside a transaction, always `count()`.
   * @param key a stable text of everything the total depends on (filters, free text)
   */
  async total(db: Kysely<any>, key: string, count: () => Promise<number>): Promise<number> {
    if (db.isTransaction) return count();
    const version = await dataVersion(db, this.dialect);
    const hit = this.entries.get(key);
    if (hit && hit.version === version) {
      this.entries.delete(key); // re-inserted below: most recently used last
      this.entries.set(key, hit);
      return hit.total;
    }
    const total = await count();
    if (this.entries.size >= MAX_ENTRIES && !hit) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { version, total });
    return total;
  }

  /** Forgets every total (after a write through the repository). */
  clear(): void {
    this.entries.clear();
  }

  /** Number of remembered totals. */
  get size(): number {
    return this.entries.size;
  }
}
