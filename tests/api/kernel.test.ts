/**
 * The generic repository's refusals (kernel/server/repository.ts), on SQLite and, with TEST_DATABASE_URL,
 * on PostgreSQL:
 * - a race between the reference check and the insert (the author deleted meanwhile) answers 409 naming
 *   the field, and stores nothing — the database's foreign key answers, mapped in kernel/server/dbErrors.ts
 *   (on PostgreSQL the deletion commits on another connection; on SQLite, whose writes are serialized, in
 *   the write's own transaction);
 * - the same for a unique value taken between the check and the insert (409 naming the field);
 * - a work added (committed) between the delete's check and its delete: 409 too;
 * - every call of every schema's x-endpoints is registered, with the schema's role gate;
 * - deleting a record still referenced by a restricting reference is refused (409) and deletes nothing;
 * - a partial update is re-checked on the merged record (stored + patch) by the schema's cross-field
 *   rule, reported on the field the update names.
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usccCheckCharacter } from '../../kernel/dialect/keywords';
import { resourceSchemas, type EndpointSpec } from '../../kernel/dialect/schemaRegistry';
import { resourceModels } from '../../kernel/server/model';
import { Repository, type ResourceHooks } from '../../kernel/server/repository';
import { artworkHooks } from '../../kernel/hooks/artworks';
import type { ApiError } from '../../server/errors';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
const models = resourceModels();
const code = (first17: string) => first17 + usccCheckCharacter(first17);

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const repoWith = (name: string, hooks: ResourceHooks) =>
  new Repository(models.get(name)!, models, t.app.dialect, hooks);
const authors = () => t.app.resources.authors;
const artworks = () => t.app.resources.artworks;
const companies = () => t.app.resources.companies;

describe('races the checks cannot see answer 409, storing nothing', () => {
  it('an artwork whose author is deleted between the reference check and the insert', async () => {
    const author = await authors().create(t.app.db, { authorName: 'Deleted meanwhile' });
    const racing = repoWith('artworks', {
      async beforeWrite(ctx) {
        await artworkHooks.beforeWrite!(ctx);
        // PostgreSQL: another connection deletes and commits; SQLite: the same (only) connection.
        const other: Kysely<any> = t.app.dialect === 'postgres' ? t.app.db : ctx.db;
        await other
          .deleteFrom('authors')
          .where('id', '=', author.id as number)
          .execute();
      },
    });
    const before = (await artworks().list(t.app.db, {})).total;
    const err = (await racing
      .create(t.app.db, { artWorkName: 'Orphan', author: author.id, classify: 'race-category', texture: 'x' })
      .catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(409);
    expect(err.code).toBe(409);
    expect(err.data).toEqual({
      errors: [expect.objectContaining({ field: 'author', keyword: 'reference' })],
    });
    expect((await artworks().list(t.app.db, {})).total).toBe(before);
    const categories = await t.app.db.selectFrom('art_categories').select('name').execute();
    expect(categories.map((c) => c.name)).not.toContain('race-category');
  });

  it('a company whose credit code is taken between the unique check and the insert', async () => {
    const creditCode = code('91310000MA1FL0001');
    const body = {
      companyName: '竞争公司',
      creditCode,
      licenseNo: '沪20150001',
      adminAccount: 'admin.race',
      backupAdminAccount: 'backup.race',
    };
    const racing = repoWith('companies', {
      async beforeWrite(ctx) {
        const other: Kysely<any> = t.app.dialect === 'postgres' ? t.app.db : ctx.db;
        const now = '2026-01-01 00:00:00';
        // On PostgreSQL the insert below waits for this commit on the unique index, then fails.
        await other
          .insertInto('companies')
          .values({ ...body, companyName: '先到公司', createTime: now, updateTime: now })
          .execute();
      },
    });
    const err = (await racing.create(t.app.db, body).catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(409);
    expect(err.data).toEqual({
      errors: [expect.objectContaining({ field: 'creditCode', keyword: 'unique' })],
    });
    const stored = await t.app.db
      .selectFrom('companies')
      .select('companyName')
      .where('creditCode', '=', creditCode)
      .execute();
    // PostgreSQL: the other connection's company stays; SQLite: the whole transaction rolled back.
    expect(stored.map((c) => c.companyName)).toEqual(t.app.dialect === 'postgres' ? ['先到公司'] : []);
  });
  it('deleting an author while a work of theirs is being added (committed after the check): 409', async () => {
    const author = await authors().create(t.app.db, { authorName: 'Racing delete' });
    const id = author.id as number;
    let inserted!: () => void;
    let release!: () => void;
    const insertedP = new Promise<void>((r) => (inserted = r));
    const hold = new Promise<void>((r) => (release = r));
    const now = '2026-01-01 00:00:00';
    // Another transaction adds a work and stays open; PostgreSQL: the delete's foreign key check waits for
    // it, then fails (23503); SQLite (one connection): the delete runs after it and its own check refuses.
    const adding = t.app.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('artworks')
        .values({
          artWorkName: 'Late',
          author: id,
          classify: 'c',
          texture: 't',
          createTime: now,
          updateTime: now,
        })
        .execute();
      inserted();
      await hold;
    });
    await insertedP;
    const deleting = authors()
      .deleteMany(t.app.db, [id])
      .catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100));
    release();
    await adding;
    const err = (await deleting) as ApiError;
    expect(err.status).toBe(409);
    expect(await authors().getOne(t.app.db, id)).toMatchObject({ artWorks: 1 });
  });
});

describe('routes from the schemas', () => {
  const calls = resourceSchemas().flatMap((s) =>
    Object.entries(s['x-endpoints'] ?? {}).flatMap(([verb, spec]) =>
      (verb === 'getManyReference'
        ? Object.values(spec as Record<string, EndpointSpec>)
        : [spec as EndpointSpec]
      ).map((e) => [`${s.$id} ${verb}: ${e.method} ${e.path}`, e, s['x-roles'] ?? []] as const),
    ),
  );

  it.each(calls)('%s is registered and refuses a missing token and role user', async (_name, e, roles) => {
    expect(t.app.hasRoute({ method: e.method, url: e.path })).toBe(true);
    const none = await t.call({
      method: e.method,
      url: e.path,
      payload: e.method === 'POST' ? {} : undefined,
      token: null,
    });
    expect(none.status).toBe(401);
    if (!roles.includes('user')) {
      const user = await t.call({
        method: e.method,
        url: e.path,
        payload: e.method === 'POST' ? {} : undefined,
        token: t.userToken,
      });
      expect(user.status).toBe(403);
    }
  });
});

describe('refusals the repository checks itself', () => {
  it('a second record with a unique value: 409 naming the field and the holder', async () => {
    const body = {
      companyName: '唯一公司',
      creditCode: code('91310000MA1FL0002'),
      licenseNo: '沪20150002',
      adminAccount: 'admin.one',
      adminName: '甲',
      adminPassword: 'initial-pass-1',
      backupAdminAccount: 'backup.one',
      backupAdminName: '乙',
      backupAdminPassword: 'initial-pass-2',
    };
    const first = await companies().create(t.app.db, body);
    const err = (await companies()
      .create(t.app.db, { ...body, companyName: '第二家' })
      .catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(409);
    expect(err.message).toBe(
      `Unified Social Credit Code: is already used by company ${first.id} ("唯一公司")`,
    );
  });

  it('deleting an author with works: 409, nothing deleted', async () => {
    const a = await authors().create(t.app.db, { authorName: 'Busy' });
    const b = await authors().create(t.app.db, { authorName: 'Free' });
    await artworks().create(t.app.db, { artWorkName: 'W', author: a.id, classify: 'c', texture: 'x' });
    const err = (await authors()
      .deleteMany(t.app.db, [b.id as number, a.id as number])
      .catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(409);
    expect(err.message).toMatch(/"Busy" \(1 artworks\): refused while the author has artworks/);
    expect(await authors().getOne(t.app.db, b.id as number)).toMatchObject({ authorName: 'Free' });
  });

  it('a partial update breaking a cross-field rule with a stored value: 400 on the field it names', async () => {
    const c = await companies().create(t.app.db, {
      companyName: '合并检查',
      creditCode: code('91310000MA1FL0003'),
      licenseNo: '沪20150003',
      adminAccount: 'admin.merge',
      adminName: '丙',
      adminPassword: 'initial-pass-3',
      backupAdminAccount: 'backup.merge',
      backupAdminName: '丁',
      backupAdminPassword: 'initial-pass-4',
    });
    for (const [field, value] of [
      ['backupAdminAccount', 'ADMIN.merge'],
      ['adminAccount', 'Backup.Merge'],
    ]) {
      const err = (await companies()
        .update(t.app.db, { id: c.id as number, [field]: value })
        .catch((e: unknown) => e)) as ApiError;
      expect(err.status, field).toBe(400);
      expect(err.data).toEqual({ errors: [expect.objectContaining({ field, keyword: 'x-distinct' })] });
    }
    expect(await companies().getOne(t.app.db, c.id as number)).toMatchObject({
      adminAccount: 'admin.merge',
      backupAdminAccount: 'backup.merge',
    });
  });
});
