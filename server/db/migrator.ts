/**
 * Runs the migrations in `migrations/index.ts` to the latest (at every server start and in tests).
 * @throws the first migration's error, after Kysely rolled that migration back.
 */
import { Migrator, type Kysely } from 'kysely';
import { migrations } from './migrations/index';

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
