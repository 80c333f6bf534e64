/**
 * The dashboards' figures (what the API returns): `GET /artmanager/dashboard/stats` over real dimensions
 * (acquisitions per year from `dealInfo.acquisitionYear`, works per category, the on-chain progress per
 * day with running totals, accounts per role) and the Fabric dashboard's chaincode count
 * (`GET /baas-api/dashboard`), which counts the chaincode the transactions use.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onChainProgress } from '../../server/routes/artmanager/dashboard';
import { addArtwork, addAuthor, createTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ledgerBatchSize: 10, ledgerBatchTimeoutMs: 20 });
});
afterAll(async () => t?.close());

const newAuthor = (name: string) => addAuthor(t, name);
const newArtwork = (author: number, name: string, classify: string, acquisitionYear?: number) =>
  addArtwork(t, author, name, { classify, ...(acquisitionYear ? { dealInfo: { acquisitionYear } } : {}) });
const stats = async () => (await t.get('/artmanager/dashboard/stats')).body.data;

describe('GET /artmanager/dashboard/stats', () => {
  it('counts acquisitions per year, works per category, on-chain progress per day and accounts per role', async () => {
    const a = await newAuthor('Dashboard Painter');
    const works = [
      await newArtwork(a, 'W1', 'painting', 1856),
      await newArtwork(a, 'W2', 'painting', 1856),
      await newArtwork(a, 'W3', 'sculpture', 1975),
      await newArtwork(a, 'W4', 'painting'),
    ];
    const before = await stats();
    expect(before.acquisitionsPerYear).toEqual([
      { year: 1856, count: 2 },
      { year: 1975, count: 1 },
    ]);
    expect(before.acquisitionYearUnknown).toBe(1);
    expect(before.categories).toEqual([
      { name: 'painting', count: 3 },
      { name: 'sculpture', count: 1 },
    ]);
    expect(before.onChainPerDay).toEqual([]);
    expect(before).not.toHaveProperty('createdPerDay');
    expect(before.accountsPerRole).toEqual(
      expect.arrayContaining([
        { role: 'admin', count: expect.any(Number) },
        { role: 'user', count: expect.any(Number) },
      ]),
    );

    expect((await t.post('/artmanager/authors/blockChain', { id: a })).status).toBe(200);
    for (const id of works.slice(0, 2))
      expect((await t.post('/artmanager/artwork/blockChain', { id })).status).toBe(200);
    const after = await stats();
    const today = after.onChainPerDay.at(-1);
    expect(after.onChainPerDay).toHaveLength(1);
    expect(today).toMatchObject({ authors: 1, artworks: 2, authorsTotal: 1, artworksTotal: 2 });
    expect(today.day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(after.artworksOnChain).toBe(2);
    expect(after.authorsOnChain).toBe(1);
  });

  it('is for admins only', async () => {
    const r = await t.get('/artmanager/dashboard/stats', t.userToken);
    expect(r.status).toBe(403);
  });
});

describe('on-chain progress', () => {
  it('merges the days of authors and artworks, ascending, with running totals', () => {
    expect(
      onChainProgress(
        [
          { day: '2026-01-03', count: 1 },
          { day: '2026-01-01', count: 2 },
        ],
        [
          { day: '2026-01-02', count: 5 },
          { day: '2026-01-03', count: 1 },
        ],
      ),
    ).toEqual([
      { day: '2026-01-01', authors: 2, artworks: 0, authorsTotal: 2, artworksTotal: 0 },
      { day: '2026-01-02', authors: 0, artworks: 5, authorsTotal: 2, artworksTotal: 5 },
      { day: '2026-01-03', authors: 1, artworks: 1, authorsTotal: 3, artworksTotal: 6 },
    ]);
  });
});

describe('GET /baas-api/dashboard chaincodes', () => {
  it('counts the chaincode the committed transactions use (artregistry), not only uploaded ones', async () => {
    const dash = (await t.get('/baas-api/dashboard')).body.data;
    expect(dash.transactions).toBeGreaterThan(0);
    expect(dash.chaincodes).toBe(1);
  });
});
