/**
 * Console accounts become a schema resource (schemas/account.schema.json): the column `account` is renamed
 * `username`, the name the login call and `POST /dev-api/user/add` use, and `roles` (a JSON array column)
 * gets the default every JSON column of the kernel has (`'[]'`, server/kernel/model.ts), so the table is
 * what the storage snapshot says. Frozen once landed: never edit, add a new migration instead.
 * `RENAME COLUMN` works on SQLite (3.25+) and PostgreSQL; the unique constraint and the tokens' foreign
 * key follow the column. SQLite cannot change a column's default: `roles` is rebuilt there (new column
 * with the default, values copied, old column dropped, new one renamed).
 */
import { sql, type Kysely } from 'kysely';

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accounts').renameColumn('account', 'username').execute();
  if (isPostgres(db)) {
    await sql`alter table accounts alter column roles set default '[]'`.execute(db);
    return;
  }
  await db.schema
    .alterTable('accounts')
    .addColumn('roles_new', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await sql`update accounts set roles_new = roles`.execute(db);
  await db.schema.alterTable('accounts').dropColumn('roles').execute();
  await db.schema.alterTable('accounts').renameColumn('roles_new', 'roles').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accounts').renameColumn('username', 'account').execute();
}
