/**
 * Issue 19 item 9, "edits are not tampering" (docs/ledger.md section 6): `GET /baas-api/verify` and
 * `npm run ledger:verify` report a record edited through the API after its put on chain, with the count
 * and the audited write that explains it, and still verify (exit 0); a record changed in the database
 * directly (its stored row matches no audited write) is a failure (exit 1). SQLite, or PostgreSQL with
 * TEST_DATABASE_URL.
 */
import { describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { expectVerifyFails, ledgerVerifyScript, sceneSetup, verifyCall } from './ledgerHelpers';

let t: TestApp;
const openScene = sceneSetup((app) => (t = app));

/** An app with two authors and an artwork, all put on chain. */
const setup = () => openScene({ a: 'Edith Edited', b: 'Tobias Tampered', work: 'Edited Work' });

describe('ledger:verify: edits are not tampering', () => {
  it('records edited through the API after their put on chain: counted with their audited writes, verified, exit 0', async () => {
    const s = await setup();
    expect((await verifyCall(t)).registry.edited).toEqual([]);
    expect(
      (await t.post('/artmanager/authors/updateInfo', { id: s.a, introduction: 'Edited later' })).status,
    ).toBe(200);
    const editW = await t.post('/artmanager/artwork/baseInfo', { id: s.w, possessor: 'A new owner' });
    expect(editW.status).toBe(200);

    const v = await verifyCall(t);
    expect(v.ok, v.message).toBe(true);
    expect(v.registry.problems).toEqual([]);
    expect(v.message).toContain('2 edited since put on chain, each by an audited write');
    expect(v.registry.edited).toHaveLength(2);
    expect(v.registry.edited).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'author',
          recordId: s.a,
          version: 1,
          txId: s.putA.txId,
          chainDigest: s.putA.digest,
          audit: expect.objectContaining({ account: 'admin', call: 'POST /artmanager/authors/updateInfo' }),
        }),
        expect.objectContaining({
          kind: 'artwork',
          recordId: s.w,
          txId: s.putW.txId,
          chainDigest: s.putW.digest,
        }),
      ]),
    );
    const [ea] = v.registry.edited.filter((e: { kind: string }) => e.kind === 'author');
    expect(ea.digest).not.toBe(s.putA.digest);
    // The explaining write is a row of the audit trail (Audit > System).
    const audit = await t.app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('id', '=', ea.audit.id)
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ resource: 'authors', recordId: String(s.a), account: 'admin' });

    const script = await ledgerVerifyScript(t);
    expect(script.code, script.out).toBe(0);
    expect(script.out).toContain('edited since put on chain (audited writes, not tampering): 2');
    expect(script.out).toContain(
      `author ${s.a}: edited since it was put on chain (version 1), by audited write #${ea.audit.id}`,
    );

    // Put on chain again: a new version, nothing edited any more.
    expect((await s.put('authors', s.a)).version).toBe(2);
    const after = await verifyCall(t);
    expect(after.ok).toBe(true);
    expect(after.registry.edited.map((e: { recordId: number }) => e.recordId)).toEqual([s.w]);
  });

  it('a record changed in the database directly, with or without an earlier API edit: a failure, exit 1', async () => {
    const s = await setup();
    await t.app.db.updateTable('authors').set({ authorName: 'Forged Name' }).where('id', '=', s.b).execute();
    const v = await expectVerifyFails(
      t,
      { kind: 'author', recordId: s.b, field: 'digest', found: s.putB.digest },
      `author ${s.b}: changed since it was put on chain (version 1), and its stored row matches no audited write`,
    );
    expect(v.registry.edited).toEqual([]);

    // An API edit, then a change behind the API's back: the stored row is no longer the audited one.
    await t.app.db
      .updateTable('authors')
      .set({ authorName: 'Tobias Tampered' })
      .where('id', '=', s.b)
      .execute();
    expect((await t.post('/artmanager/authors/updateInfo', { id: s.a, introduction: 'Edited' })).status).toBe(
      200,
    );
    expect((await verifyCall(t)).ok).toBe(true);
    await t.app.db
      .updateTable('authors')
      .set({ introduction: 'Edited behind the API' })
      .where('id', '=', s.a)
      .execute();
    const v2 = await verifyCall(t);
    expect(v2).toMatchObject({ ok: false, kind: 'author', recordId: s.a, field: 'digest' });
    expect(v2.registry.edited).toEqual([]);
    expect((await ledgerVerifyScript(t)).code).toBe(1);
  });
});
