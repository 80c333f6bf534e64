/**
 * Console accounts become a schema resource (schemas/account.schema.json): the column `account` is renamed
 * `username`, the name the login call and `POST /dev-api/user/add` use. Frozen once landed: never edit,
 * add a new migration instead. `ALTER TABLE ... RENAME COLUMN` works on SQLite (3.25+) and PostgreSQL;
 * the unique constraint and the tokens' foreign key follow the column.
 */
import { type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accounts').renameColumn('account', 'username').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accounts').renameColumn('username', 'account').execute();
}
