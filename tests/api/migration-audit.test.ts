/**
 * What a schema migration leaves in the audit trail (issue 33 with issue 32's "one door"; codegen's
 * phase 10, scripts/codegen/storage/audit.ts), on SQLite and, with TEST_DATABASE_URL, on PostgreSQL.
 * Artworks put on chain through the API, then two edits of the artwork schema, each through codegen's
 * own path and run as the server runs its migrations (tests/support/tateEvolution.ts `evolution`):
 * 1. `artWorkName` tightened to 50 characters with `x-onBreak` truncate: every truncated record's History
 *    (GET /dev-api/history/revisions) shows the migration's revision (account `system`, call
 *    `migration <name>`, the value before and after), a record without history gets its base revision
 *    first, Revert restores the value before the fix, and GET /baas-api/verify reports an on-chain record
 *    the fix changed as edited by that audited write, not as changed outside the API;
 * 2. `texture` renamed to `medium`, `possessor` removed and `provenance` added in one migration: the
 *    ledger's edit audit (server/ledger/audit.ts `auditRegistry`, behind GET /baas-api/verify) reports the
 *    on-chain records the migration reshaped as edited by the migration, while a record changed in the
 *    database directly, before the migration or after it, is still a `digest` problem.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceSchema } from '../../kernel/dialect/schemaRegistry';
import { resourceModels } from '../../kernel/server/model';
import { Repository } from '../../kernel/server/repository';
import { connect } from '../../server/db/connect';
import { auditRegistry } from '../../server/ledger/audit';
import { EDITS, evolution, type Edit } from '../support/tateEvolution';
import { addArtwork, addAuthor, type TestApp } from './helpers';
import { blockPerTxApp, putOnChain, verifyCall } from './ledgerHelpers';

let t: TestApp;
let evo: ReturnType<typeof evolution>;
const LONG = 'A title of fifty-five characters, too long for the rule';
const OLD = 'Stored before any history: too long for the new rule';
const ids = { clean: 0, fixed: 0, old: 0, tampered: 0 };

const revisions = async (id: number) => {
  const r = await t.get(`/dev-api/history/revisions?resource=artworks&id=${id}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.list as {
    id: number;
    account: string;
    call: string;
    operation: string;
    state: Record<string, unknown>;
    changes: { field: string; before: unknown; after: unknown }[];
  }[];
};

/** The name of the migration run last. */
const lastMigration = async () =>
  (
    await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name DESC LIMIT 1`.execute(
      t.app.db,
    )
  ).rows[0].name;

beforeAll(async () => {
  t = await blockPerTxApp();
  const author = await addAuthor(t, 'Migrated Maker');
  await putOnChain(t, 'authors', author); // an artwork goes on chain after its author
  ids.clean = await addArtwork(t, author, 'Short title');
  ids.fixed = await addArtwork(t, author, LONG);
  ids.old = await addArtwork(t, author, OLD);
  ids.tampered = await addArtwork(t, author, 'Tampered later', { possessor: 'The owner' });
  for (const id of [ids.clean, ids.fixed, ids.tampered]) await putOnChain(t, 'artwork', id);
  // a record stored before the audit trail (or by an older data migration): no audit row at all
  await sql`DELETE FROM audit_log WHERE resource = 'artworks' AND "recordId" = ${String(ids.old)}`.execute(
    t.app.db,
  );
  evo = evolution(t.app.db, `migration-audit-${process.pid}`);
}, 60_000);
afterAll(async () => {
  evo?.cleanup();
  await t?.close();
});

describe('a migration fixing rows (x-onBreak)', () => {
  let name = '';
  beforeAll(async () => {
    const tighten = EDITS.find((e) => e.title.startsWith('5 '))!;
    const r = await evo.step(tighten);
    expect(r.plan.refused).toMatch(/artWorkName maxLength 50/); // refused until the schema said what to do
    name = await lastMigration();
  }, 60_000);

  it('leaves an audit row per fixed record: History shows who changed what, from what to what', async () => {
    const [fix, ...older] = await revisions(ids.fixed);
    expect(fix).toMatchObject({ account: 'system', call: `migration ${name}`, operation: 'update' });
    expect(fix.changes).toEqual([{ field: 'artWorkName', before: LONG, after: LONG.slice(0, 50) }]);
    expect(fix.state.artWorkName).toBe(LONG.slice(0, 50));
    expect(older.map((o) => o.call)).toEqual([
      'POST /artmanager/artwork/blockChain',
      'POST /artmanager/artwork/addArtwork',
    ]);
    // a record without history gets its base revision (the value before the fix) first
    const old = await revisions(ids.old);
    expect(old.map((o) => [o.account, o.call.split(':')[0]])).toEqual([
      ['system', `migration ${name}`],
      ['system', 'base revision'],
    ]);
    expect(old[1].state.artWorkName).toBe(OLD);
    // a record the rule does not break gets nothing
    expect((await revisions(ids.clean)).map((o) => o.account)).toEqual(['admin', 'admin']);
  });

  it('the ledger reports the on-chain record it fixed as edited by the migration, not as tampered', async () => {
    const v = await verifyCall(t);
    expect(v.ok, v.message).toBe(true);
    expect(v.registry.problems).toEqual([]);
    expect(v.registry.edited).toEqual([
      expect.objectContaining({
        kind: 'artwork',
        recordId: ids.fixed,
        audit: expect.objectContaining({ account: 'system', call: `migration ${name}` }),
      }),
    ]);
  });

  it('Revert restores the value before the fix, as a new audited revision', async () => {
    const [, before] = await revisions(ids.old);
    const r = await t.post('/dev-api/history/revert', {
      resource: 'artworks',
      id: ids.old,
      revision: before.id,
    });
    // the running server's schema still allows 60 characters; one on the new schema refuses it (400, the field)
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.artWorkName).toBe(OLD);
    const [revert] = await revisions(ids.old);
    expect(revert).toMatchObject({ account: 'admin', call: 'POST /dev-api/history/revert' });
    expect(revert.changes).toEqual([{ field: 'artWorkName', before: OLD.slice(0, 50), after: OLD }]);
  });
});

/** The ledger's registry audit with the artwork and author repositories of the evolved schemas. */
async function registryAudit() {
  // a connection of its own, as a server started on the migrated database has
  const { db } = connect({
    dataDir: t.dataDir,
    databaseUrl: t.app.config.databaseUrl,
    sqliteFile: t.app.config.sqliteFile,
  });
  try {
    const models = resourceModels(evo.schemas() as ResourceSchema[]);
    const repo = (name: string) => new Repository(models.get(name)! as never, models, t.app.dialect);
    return await auditRegistry(db as never, { artworks: repo('artworks'), authors: repo('authors') });
  } finally {
    await db.destroy();
  }
}

describe('a migration renaming, removing and adding fields of on-chain records', () => {
  let name = '';
  beforeAll(async () => {
    // changed in the database directly before the migration: the migration must not launder it
    await sql`UPDATE artworks SET possessor = 'Forged owner' WHERE id = ${ids.tampered}`.execute(t.app.db);
    const pick = (n: string) => EDITS.find((e) => e.title.startsWith(n))!;
    const reshape: Edit = {
      title: 'rename texture, remove possessor, add provenance',
      apply: (s, ctx) => {
        for (const n of ['1 ', '3 ', '8 ']) pick(n).apply(s, ctx);
      },
      changed: [],
    };
    await evo.step(reshape);
    name = await lastMigration();
  }, 60_000);

  it('reports the reshaped records as edited by the migration, and a direct change as a problem', async () => {
    const audit = await registryAudit();
    expect(audit.edited.map((e) => [e.recordId, e.audit.account, e.audit.call]).sort()).toEqual(
      [
        [ids.clean, 'system', `migration ${name}`],
        [ids.fixed, 'system', `migration ${name}`],
      ].sort(),
    );
    expect(audit.problems.map((p) => [p.recordId, p.field])).toEqual([[ids.tampered, 'digest']]);
    // the migration's own audit row names what it changed
    const row = await t.app.db
      .selectFrom('audit_log')
      .select(['account', 'call', 'resource', 'recordId', 'state'])
      .where('recordId', '=', name)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ account: 'system', call: `migration ${name}`, resource: 'database' });
    expect(JSON.parse(row.state!).tables.artworks).toEqual({
      renamed: { medium: 'texture' },
      removed: { possessor: 'text' },
      added: ['provenance'],
      converted: {},
    });

    // a change in the database directly after the migration: a problem
    await sql`UPDATE artworks SET medium = 'Forged medium' WHERE id = ${ids.clean}`.execute(t.app.db);
    const after = await registryAudit();
    expect(after.problems.map((p) => [p.recordId, p.field]).sort()).toEqual(
      [
        [ids.clean, 'digest'],
        [ids.tampered, 'digest'],
      ].sort(),
    );
  });
});
