/**
 * `npm run bench -- --evolution` (also `npx tsx bench/evolution.ts`): the eight artwork schema edits of
 * issue 33 (tests/support/tateEvolution.ts) on the full Tate import (51,840 artworks), on SQLite and, when
 * BENCH_DATABASE_URL or TEST_DATABASE_URL names a PostgreSQL role allowed to create databases, on a
 * scratch PostgreSQL database (dropped after). Printed, never asserted (goal: each migration at most 10 s).
 *
 * For each database: the full Tate files imported with `importTate` (as `npm run import` does), then
 * each edit through codegen's own path in this process (dialect check, `plannedMigration`,
 * `migrationSource`), its plan (`planMigrations`, as `codegen --plan`: the time to name the breaking
 * rows) and its run (`migrateToLatest`, as the server runs it at start). Per edit it prints the times
 * side by side, the rows the plan names against an independent SQL query of them (`=` when the same),
 * and whether every other value of every row was kept (a digest of each row, the edited column left out).
 *
 * Environment: TATE_DIR (default ../shared/data/tate), BENCH_DATABASE_URL / TEST_DATABASE_URL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, isPostgresUrl } from '../server/db/connect';
import { migrateToLatest } from '../server/db/migrator';
import { importTate } from '../server/import/importer';
import { createScratchDatabase } from '../tests/support/pgAdmin';
import { EDITS, evolution, rowDigests, type EditResult } from '../tests/support/tateEvolution';
import { runIfMain, tateFiles } from './benchServer';

const tateDir = resolve(
  process.env.TATE_DIR || join(dirname(fileURLToPath(import.meta.url)), '../../shared/data/tate'),
);

/** Per edit: its result and whether every other value was kept. */
type Run = { label: string; artworks: number; importS: number; edits: (EditResult & { kept: boolean })[] };

/** Imports the full Tate files into the database of `opts`, then runs the eight edits on it. */
async function runOne(label: string, opts: { dataDir: string; databaseUrl?: string }): Promise<Run> {
  const { db } = connect(opts);
  try {
    await migrateToLatest(db);
    const t0 = performance.now();
    const summary = await importTate(db, { ...tateFiles(tateDir) });
    const importS = (performance.now() - t0) / 1000;
    console.log(`${label}: ${summary.artworks.imported} artworks imported in ${importS.toFixed(1)} s`);
    const evo = evolution(db, `evo-bench-${process.pid}-${label}`);
    const edits: Run['edits'] = [];
    try {
      for (const edit of EDITS) {
        const skip = [...edit.changed, 'provenance', 'inventoryChecked'];
        const rename = edit.renamed ? { [edit.renamed[1]]: edit.renamed[0] } : {};
        const breaking = await evo.breaking(edit);
        const before = await rowDigests(db, skip, {}, breaking);
        const r = await evo.step(edit);
        const after = await rowDigests(db, skip, rename, breaking);
        const kept = before.size === after.size && [...before].every(([id, d]) => after.get(id) === d);
        edits.push({ ...r, kept });
        console.log(
          `${label} ${edit.title}: codegen ${r.ms.codegen} ms, plan ${r.ms.plan} ms, migrate ${r.ms.migrate} ms` +
            `${r.expected.length ? `, ${r.expected.length} breaking row(s)` : ''}, values kept: ${kept}`,
        );
      }
    } finally {
      evo.cleanup();
    }
    return { label, artworks: summary.artworks.imported, importS, edits };
  } finally {
    await db.destroy();
  }
}

/** The plan's named rows against the query's: `N =` when the same, else both counts. */
function named(r: EditResult): string {
  const ids = r.plan.checks.filter((c) => c.ids.length).flatMap((c) => c.ids);
  if (!r.expected.length && !ids.length) return '0';
  const same = ids.length === r.expected.length && ids.every((id, i) => id === r.expected[i]);
  return same ? `${ids.length} =` : `${ids.length} ≠ query ${r.expected.length}`;
}

/** Runs the bench (see the module doc) and prints one table. */
export async function main(): Promise<void> {
  const runs: Run[] = [];
  const tmp = mkdtempSync(join(tmpdir(), 'baas-evolution-'));
  try {
    runs.push(await runOne('SQLite', { dataDir: join(tmp, 'sqlite') }));
    const admin = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
    if (isPostgresUrl(admin)) {
      const scratch = await createScratchDatabase(admin, 'baas_evolution');
      try {
        runs.push(await runOne('PostgreSQL', { dataDir: join(tmp, 'pg'), databaseUrl: scratch.url }));
      } finally {
        await scratch.drop();
      }
    } else console.log('(PostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const pad = (s: string, n: number) => s.padEnd(n);
  const head = runs.map((r) => `${pad(`${r.label} plan / migrate`, 26)} ${pad('rows named', 12)}`).join(' ');
  console.log(
    `\nEight edits of artwork.schema.json on ${runs.map((r) => `${r.artworks} artworks (${r.label})`).join(', ')}`,
  );
  console.log(`${pad('edit', 58)} ${head}`);
  for (const [i, edit] of EDITS.entries()) {
    const cells = runs.map((run) => {
      const r = run.edits[i];
      if (!r) return pad('-', 39);
      const time = r.steps.length
        ? `${(r.ms.plan / 1000).toFixed(2)} / ${(r.ms.migrate / 1000).toFixed(2)} s`
        : 'no migration';
      return `${pad(time + (r.kept ? '' : ' VALUES LOST'), 26)} ${pad(named(r), 12)}`;
    });
    console.log(`${pad(edit.title, 58)} ${cells.join(' ')}`);
  }
}

runIfMain(import.meta.url, main);
