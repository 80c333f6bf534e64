/**
 * Runs the migrations in `migrations/index.ts` to the latest (at every server start and in tests), and
 * plans them without writing (`npm run codegen -- --plan`).
 *
 * Transactions: on PostgreSQL, Kysely's migrator runs every pending migration in one transaction (DDL is
 * transactional there). On SQLite, where Kysely opens none, each migration runs in a transaction of its
 * own (`BEGIN IMMEDIATE` … `COMMIT` on the one connection), with foreign keys off while it runs, as
 * SQLite's table rebuilds need (sqlite.org/lang_altertable.html, "Making Other Kinds Of Table Schema
 * Changes"); `PRAGMA foreign_key_check` must find nothing before the commit. A migration that throws
 * (e.g. a storage migration refusing rows that break a tightened rule, scripts/codegen/storage/emit.ts)
 * is rolled back whole: the database is as before it.
 */
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { migrations } from './migrations/index';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter.constructor.name === 'PostgresAdapter';

/** A storage migration's `up`, which also reports the rows its checks find (scripts/codegen/storage/emit.ts). */
type ReportingUp = (db: Kysely<any>, report?: (found: FoundRows[]) => void) => Promise<void>;

/** The rows one check of a tightened rule finds (a storage migration's `Found`). */
export interface FoundRows {
  table: string;
  column: string;
  rule: string;
  limit: unknown;
  ids: number[];
  fixed: boolean;
}

/** What one pending migration would do (see {@link planMigrations}). */
export interface MigrationPlan {
  name: string;
  /** Whether it is a file already (false: the one codegen would write for the schemas). */
  written: boolean;
  /** One line a step (the migration's `steps` export), empty for a hand-written migration. */
  steps: string[];
  checks: FoundRows[];
  /** Why it would be refused (its error), or null. */
  refused: string | null;
}

function migratorOf(db: Kysely<any>, list: Record<string, Migration>) {
  return new Migrator({ db, provider: { getMigrations: async () => list } });
}

/** On SQLite: whether foreign keys are enforced now. */
async function foreignKeysOn(db: Kysely<any>): Promise<boolean> {
  const r = await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(db);
  return Number(r.rows[0]?.foreign_keys) === 1;
}

/**
 * Runs `work` on SQLite inside one transaction with foreign keys off; commits when `commit` and no foreign
 * key is broken, else rolls back. Foreign keys are restored as they were.
 */
async function sqliteTransaction<T>(db: Kysely<any>, commit: boolean, work: () => Promise<T>): Promise<T> {
  const fk = await foreignKeysOn(db);
  if (fk) await sql`PRAGMA foreign_keys = OFF`.execute(db);
  await sql`BEGIN IMMEDIATE`.execute(db);
  try {
    const out = await work();
    if (!commit) {
      await sql`ROLLBACK`.execute(db);
      return out;
    }
    const broken = await sql<Record<string, unknown>>`PRAGMA foreign_key_check`.execute(db);
    if (broken.rows.length)
      throw new Error(`migration breaks foreign keys: ${JSON.stringify(broken.rows.slice(0, 5))}`);
    await sql`COMMIT`.execute(db);
    return out;
  } catch (e) {
    await sql`ROLLBACK`.execute(db).catch(() => undefined);
    throw e;
  } finally {
    if (fk) await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}

/**
 * Runs the pending migrations of `list` (default: migrations/index.ts) in order; resolves the names run.
 * @throws the first migration's error, after that migration was rolled back.
 */
export async function migrateToLatest(
  db: Kysely<any>,
  list: Record<string, Migration> = migrations,
): Promise<string[]> {
  const migrator = migratorOf(db, list);
  if (isPostgres(db)) {
    const { error, results } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  }
  const done: string[] = [];
  for (;;) {
    const pending = (await migrator.getMigrations()).filter((m) => !m.executedAt);
    if (!pending.length) return done;
    // Kysely answers a migration's error instead of throwing it: thrown here, it rolls the transaction back.
    await sqliteTransaction(db, true, async () => {
      const { error } = await migrator.migrateUp();
      if (error) throw error instanceof Error ? error : new Error(String(error));
    });
    done.push(pending[0].name);
  }
}

/**
 * What the pending migrations of `list` would do on `db`, and `extra` (the migration codegen would write
 * now, not yet a file) after them: each one's steps and the rows its checks find, run in one transaction
 * that is rolled back, so nothing is written. Stops at the first migration that would be refused.
 */
export async function planMigrations(
  db: Kysely<any>,
  list: Record<string, Migration> = migrations,
  extra?: { name: string; module: Migration & { steps?: string[] } },
): Promise<MigrationPlan[]> {
  const executed = new Set(
    (await migratorOf(db, list).getMigrations()).filter((m) => m.executedAt).map((m) => m.name),
  );
  const pending = Object.keys(list)
    .sort()
    .filter((n) => !executed.has(n))
    .map((name) => ({ name, module: list[name] as Migration & { steps?: string[] }, written: true }));
  if (extra) pending.push({ ...extra, written: false });
  const plans: MigrationPlan[] = [];
  const work = async (trx: Kysely<any>) => {
    for (const m of pending) {
      const plan: MigrationPlan = {
        name: m.name,
        written: m.written,
        steps: m.module.steps ?? [],
        checks: [],
        refused: null,
      };
      plans.push(plan);
      try {
        await (m.module.up as ReportingUp)(trx, (found) => plan.checks.push(...found));
      } catch (e) {
        plan.refused = (e as Error).message;
        return;
      }
    }
  };
  if (isPostgres(db)) {
    await db.connection().execute(async (conn) => {
      await sql`BEGIN`.execute(conn);
      try {
        await work(conn);
      } finally {
        await sql`ROLLBACK`.execute(conn);
      }
    });
  } else await sqliteTransaction(db, false, () => work(db));
  return plans;
}
