/**
 * `npm run codegen -- --plan [--json] [--database <postgres URL | SQLite file>]`: what each pending
 * migration will do on a live database, as `prisma migrate diff` tells, writing nothing (README
 * "Changing a schema"). The database: `--database`, else `DATABASE_URL`, else `<DATA_DIR or ./data>/
 * baas.sqlite`. The pending migrations are those of server/db/migrations/index.ts the database has not
 * run, then the one `npm run codegen` would write for the schemas now (not yet a file). Each is run in
 * one transaction that is rolled back (server/db/migrator.ts `planMigrations`), so the rows its checks
 * name are those of the database as the earlier migrations leave it.
 *
 * Output: one block per migration (its steps, then per tightened rule `ok`, `N row(s) fixed by the
 * schema` or `N row(s) break it: ids …`, then `REFUSED` with the reason). With `--json`, one JSON object
 * on stdout: `{ database: 'sqlite'|'postgres', ok, migrations: MigrationPlan[] }` (server/db/migrator.ts:
 * `{ name, written, steps: string[], checks: [{ table, column, rule, limit, ids, fixed }], refused }`).
 * Exit code 0 when no migration would be refused, 1 otherwise.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { connect, isPostgresUrl } from '../../../server/db/connect';
import { planMigrations, type MigrationPlan } from '../../../server/db/migrator';
import { migrations } from '../../../server/db/migrations/index';
import { migrationSource } from './emit';
import type { Step } from './diff';

/** The value of `--name value` in `argv`, or undefined. */
export const optionOf = (argv: string[], name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};

/** The human-readable plan (see the module doc). */
export function planText(plans: MigrationPlan[]): string {
  if (!plans.length) return 'No pending migration: the database is up to date with the schemas.';
  const lines: string[] = [];
  for (const p of plans) {
    lines.push(`${p.name}${p.written ? '' : ' (not yet written: `npm run codegen` writes it)'}`);
    for (const s of p.steps) lines.push(`  - ${s}`);
    for (const c of p.checks) {
      const what = `${c.table}.${c.column} ${c.rule} ${JSON.stringify(c.limit)}`;
      if (!c.ids.length) lines.push(`  ✓ ${what}: no row breaks it`);
      else if (c.fixed)
        lines.push(`  ✓ ${what}: ${c.ids.length} row(s) set as the schema says (ids ${c.ids.join(', ')})`);
      else lines.push(`  ✗ ${what}: ${c.ids.length} row(s) break it: ids ${c.ids.join(', ')}`);
    }
    if (p.refused) lines.push(`  REFUSED: ${p.refused.split('\n')[0]}`);
  }
  return lines.join('\n');
}

/**
 * Plans against the database the options name; `planned` is codegen's migration for the schemas now
 * (storage.ts `plannedMigration`). Prints the plan; resolves the exit code.
 */
export async function runPlan(
  root: string,
  argv: string[],
  planned: { name: string; steps: Step[] },
): Promise<number> {
  const target = optionOf(argv, '--database') ?? process.env.DATABASE_URL;
  const isPg = isPostgresUrl(target);
  const { db, dialect } = connect({
    dataDir: process.env.DATA_DIR ?? join(root, 'data'),
    ...(isPg ? { databaseUrl: target } : target ? { sqliteFile: target } : {}),
  });
  const dir = join(root, '.tmp');
  const file = join(dir, `plan-${process.pid}-${planned.name || 'none'}.ts`);
  try {
    let extra;
    if (planned.steps.length) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(file, migrationSource(planned.name, planned.steps));
      extra = { name: planned.name, module: await import(pathToFileURL(file).href) };
    }
    const plans = await planMigrations(db, migrations, extra);
    const ok = plans.every((p) => !p.refused);
    if (argv.includes('--json')) console.log(JSON.stringify({ database: dialect, ok, migrations: plans }));
    else console.log(planText(plans));
    return ok ? 0 : 1;
  } finally {
    rmSync(file, { force: true });
    await db.destroy();
  }
}
