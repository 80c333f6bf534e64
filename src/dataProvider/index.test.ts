import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  createDataProvider,
  endpointTable,
  formatEndpointRow,
  idParams,
  toQuery,
  withIds,
  writableFields,
} from './index';
import type { HttpClient, HttpOptions } from './httpClient';
import { resourceSchemas, type ResourceSchema } from '../../kernel/dialect/schemaRegistry';

interface Call {
  url: string;
  method: string;
  body: unknown;
}

/** A fake transport that records each call and answers `data` (or `reply(call)`). */
function fake(reply: (c: Call) => unknown) {
  const calls: Call[] = [];
  const client: HttpClient = async (url: string, options: HttpOptions = {}) => {
    const c: Call = {
      url,
      method: options.method ?? 'GET',
      body: typeof options.body === 'string' ? JSON.parse(options.body) : options.body,
    };
    calls.push(c);
    const data = reply(c);
    return {
      status: 200,
      headers: new Headers(),
      body: JSON.stringify(data),
      json: { code: 0, msg: 'ok', data } as any,
    };
  };
  return { calls, dp: createDataProvider(client) };
}

const page = (list: unknown[], total = list.length) => ({ list, total });

describe('dataProvider: verb → call, derived from x-endpoints', () => {
  it('the generated table docs/data-provider-calls.md is exactly the table derived from the schemas', () => {
    const doc = readFileSync(
      fileURLToPath(new URL('../../docs/data-provider-calls.md', import.meta.url)),
      'utf8',
    );
    // the table's rows, cells unpadded (prettier aligns the columns)
    const documented = doc
      .split('\n')
      .map((l) => l.trim().replace(/\s+\|/g, ' |').replace(/\|\s+/g, '| '))
      .filter((l) => /^\| [a-zA-Z]+ \| [a-zA-Z()]+ \| (GET|POST) /.test(l));
    const rows = endpointTable().map(formatEndpointRow);
    expect(documented).toEqual(rows);
    // every resource the registry declares has its rows (the table is not empty or partial)
    const names = new Set(resourceSchemas().map((s) => s['x-resource']!.name));
    expect(new Set(rows.map((r) => r.split(' | ')[0].slice(2)))).toEqual(names);
  });

  it('getList authors: GET /artmanager/authors/getList with page, pageSize, sort, order and filters in the query', async () => {
    const { calls, dp } = fake(() => page([{ id: 1, authorName: 'Turner' }], 41));
    const r = await dp.getList('authors', {
      pagination: { page: 3, perPage: 20 },
      sort: { field: 'createTime', order: 'DESC' },
      filter: { isBlock: 1, empty: '' },
    });
    expect(calls).toEqual([
      {
        url: '/artmanager/authors/getList?page=3&pageSize=20&sort=createTime&order=DESC&isBlock=1',
        method: 'GET',
        body: undefined,
      },
    ]);
    expect(r).toEqual({ data: [{ id: 1, authorName: 'Turner' }], total: 41 });
  });

  it('getList authors with free text q uses the search endpoint: POST /artmanager/authors/authorSearch with a JSON body', async () => {
    const { calls, dp } = fake(() => page([]));
    await dp.getList('authors', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'id', order: 'ASC' },
      filter: { q: ' Turner ' },
    });
    expect(calls).toEqual([
      {
        url: '/artmanager/authors/authorSearch',
        method: 'POST',
        body: { page: 1, pageSize: 10, sort: 'id', order: 'ASC', q: 'Turner' },
      },
    ]);
  });

  it('getList artworks: POST /artmanager/artwork/searchArtworkList with the list parameters in the body', async () => {
    const { calls, dp } = fake(() => page([{ id: 7 }], 69202));
    const r = await dp.getList('artworks', {
      pagination: { page: 2, perPage: 25 },
      sort: { field: 'artWorkName', order: 'ASC' },
      filter: { q: '水', author: 12, status: 2 },
    });
    expect(calls).toEqual([
      {
        url: '/artmanager/artwork/searchArtworkList',
        method: 'POST',
        body: { page: 2, pageSize: 25, sort: 'artWorkName', order: 'ASC', q: '水', author: 12, status: 2 },
      },
    ]);
    expect(r.total).toBe(69202);
  });

  it('getList artCategories: GET /artmanager/artSort/artcateList', async () => {
    const { calls, dp } = fake(() => page([{ id: 1, name: 'painting', count: 3 }]));
    const r = await dp.getList('artCategories', {
      pagination: { page: 1, perPage: 100 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    expect(calls[0]).toEqual({
      url: '/artmanager/artSort/artcateList?page=1&pageSize=100&sort=id&order=ASC',
      method: 'GET',
      body: undefined,
    });
    expect(r.data[0].name).toBe('painting');
  });

  it('getList rejects a list answer that lacks {list, total}', async () => {
    const { dp } = fake(() => [{ id: 1 }]);
    await expect(
      dp.getList('authors', {
        pagination: { page: 1, perPage: 10 },
        sort: { field: 'id', order: 'ASC' },
        filter: {},
      }),
    ).rejects.toThrow(/list, total/);
  });

  it('getOne authors: GET /artmanager/authors/getInfo?id=', async () => {
    const { calls, dp } = fake(() => ({ id: 5, authorName: 'Blake, William' }));
    const r = await dp.getOne('authors', { id: 5 });
    expect(calls).toEqual([{ url: '/artmanager/authors/getInfo?id=5', method: 'GET', body: undefined }]);
    expect(r.data).toEqual({ id: 5, authorName: 'Blake, William' });
  });

  it('getOne artworks: GET /artmanager/artwork/ArtInfoByArtId?artId=', async () => {
    const { calls, dp } = fake(() => ({ id: 9 }));
    await dp.getOne('artworks', { id: 9 });
    expect(calls[0]).toEqual({
      url: '/artmanager/artwork/ArtInfoByArtId?artId=9',
      method: 'GET',
      body: undefined,
    });
  });

  it("getOne bidUsers: GET getInfo?id=; platformUsers: the product's POST getUerById {id}", async () => {
    const { calls, dp } = fake(() => ({ id: 3 }));
    await dp.getOne('bidUsers', { id: 3 });
    await dp.getOne('platformUsers', { id: 4 });
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['GET', '/artmanager/bidUser/getInfo?id=3', undefined],
      ['POST', '/artmanager/admin/user/getUerById', { id: 4 }],
    ]);
  });

  it("getOne platformUsers with the route's string id sends the integer the schema declares", async () => {
    const { calls, dp } = fake(() => ({ id: 1 }));
    await dp.getOne('platformUsers', { id: '1' });
    expect(calls[0].body).toEqual({ id: 1 });
  });

  it('getMany authors: GET getList?ids=1,2,3 with page 1 and pageSize = number of ids', async () => {
    const { calls, dp } = fake(() => page([{ id: 1 }, { id: 2 }, { id: 3 }]));
    const r = await dp.getMany('authors', { ids: [1, 2, 3] });
    expect(calls).toEqual([
      { url: '/artmanager/authors/getList?ids=1%2C2%2C3&page=1&pageSize=3', method: 'GET', body: undefined },
    ]);
    expect(r.data.map((d) => d.id)).toEqual([1, 2, 3]);
  });

  it('getMany artworks: POST searchArtworkList with ids as an integer array', async () => {
    const { calls, dp } = fake(() => page([]));
    await dp.getMany('artworks', { ids: [4, '5'] });
    expect(calls).toEqual([
      {
        url: '/artmanager/artwork/searchArtworkList',
        method: 'POST',
        body: { ids: [4, 5], page: 1, pageSize: 2 },
      },
    ]);
  });

  it('getMany with no ids makes no call', async () => {
    const { calls, dp } = fake(() => page([]));
    expect(await dp.getMany('authors', { ids: [] })).toEqual({ data: [] });
    expect(calls).toEqual([]);
  });

  it('getManyReference artworks by author: GET /artmanager/authors/getArtworkList?id= plus list parameters', async () => {
    const { calls, dp } = fake(() => page([{ id: 1 }], 1));
    const r = await dp.getManyReference('artworks', {
      target: 'author',
      id: 12,
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'createTime', order: 'DESC' },
      filter: {},
    });
    expect(calls).toEqual([
      {
        url: '/artmanager/authors/getArtworkList?id=12&page=1&pageSize=10&sort=createTime&order=DESC',
        method: 'GET',
        body: undefined,
      },
    ]);
    expect(r).toEqual({ data: [{ id: 1 }], total: 1 });
  });

  it.each([
    {
      name: 'getManyReference(bid): the product call GET subjects/artworkListByCurrentUserId with the id',
      target: 'bid',
      call: {
        url: '/artmanager/subjects/artworkListByCurrentUserId?id=3&page=1&pageSize=5&sort=id&order=ASC',
        method: 'GET',
        body: undefined,
      },
    },
    {
      name: 'getManyReference on a target without its own endpoint filters the list call',
      target: 'classify',
      call: {
        url: '/artmanager/artwork/searchArtworkList',
        method: 'POST',
        body: { page: 1, pageSize: 5, sort: 'id', order: 'ASC', classify: 3 },
      },
    },
  ])('$name', async ({ target, call }) => {
    const { calls, dp } = fake(() => page([]));
    await dp.getManyReference('artworks', {
      target,
      id: 3,
      pagination: { page: 1, perPage: 5 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    expect(calls[0]).toEqual(call);
  });

  it('create authors: POST addAuthors with the writable fields only (readOnly and unknown fields left out)', async () => {
    const { calls, dp } = fake((c) => ({ id: 100, ...(c.body as object) }));
    const r = await dp.create('authors', {
      data: { authorName: '齐白石', introduction: null, id: 99, createTime: 'x', artWorks: 3, unknown: 1 },
    });
    expect(calls).toEqual([
      {
        url: '/artmanager/authors/addAuthors',
        method: 'POST',
        body: { authorName: '齐白石', introduction: null },
      },
    ]);
    expect(r.data.id).toBe(100);
  });

  it('create artworks: POST addArtwork with nested sections and images', async () => {
    const { calls, dp } = fake(() => ({ id: 1 }));
    const data = {
      artWorkName: '虾',
      author: 3,
      classify: 'painting',
      texture: 'ink',
      images: ['/uploads/a.png'],
      baseInfo: { size: '1x2' },
    };
    await dp.create('artworks', { data: { ...data, status: 0 } });
    expect(calls).toEqual([{ url: '/artmanager/artwork/addArtwork', method: 'POST', body: data }]);
  });

  it('update authors: POST updateInfo with id plus the changed writable fields', async () => {
    const { calls, dp } = fake(() => ({ id: 5 }));
    const previousData = { id: 5, authorName: 'A', introduction: 'x', artWorks: 2, wxIsEnable: 0 };
    await dp.update('authors', {
      id: 5,
      data: { ...previousData, authorName: 'B', wxIsEnable: 1 },
      previousData,
    });
    expect(calls).toEqual([
      {
        url: '/artmanager/authors/updateInfo',
        method: 'POST',
        body: { authorName: 'B', wxIsEnable: 1, id: 5 },
      },
    ]);
  });

  it('update and delete send the id from the route ("5", a string in react-admin) as the integer the API takes', async () => {
    const { calls, dp } = fake(() => ({ id: 5 }));
    const previousData = { id: 5, authorName: 'A' };
    await dp.update('authors', { id: '5', data: { ...previousData, authorName: 'B' }, previousData });
    await dp.delete('artworks', { id: '6' });
    expect(calls.map((c) => c.body)).toEqual([{ authorName: 'B', id: 5 }, { id: 6 }]);
  });

  it('update artworks: POST baseInfo; a changed nested section is sent whole', async () => {
    const { calls, dp } = fake(() => ({ id: 9 }));
    const previousData = { id: 9, artWorkName: 'A', baseInfo: { size: '1', width: '2' } };
    await dp.update('artworks', {
      id: 9,
      data: { ...previousData, baseInfo: { size: '1', width: '3' } },
      previousData,
    });
    expect(calls).toEqual([
      {
        url: '/artmanager/artwork/baseInfo',
        method: 'POST',
        body: { baseInfo: { size: '1', width: '3' }, id: 9 },
      },
    ]);
  });

  it('updateMany: no batch endpoint, so one update call per id', async () => {
    const { calls, dp } = fake(() => ({}));
    const r = await dp.updateMany('authors', { ids: [1, 2], data: { wxIsEnable: 1, createTime: 'x' } });
    expect(calls).toEqual([
      { url: '/artmanager/authors/updateInfo', method: 'POST', body: { wxIsEnable: 1, id: 1 } },
      { url: '/artmanager/authors/updateInfo', method: 'POST', body: { wxIsEnable: 1, id: 2 } },
    ]);
    expect(r).toEqual({ data: [1, 2] });
  });

  it('updateMany with its endpoint: one call {ids, data} with the writable fields', async () => {
    const authors = resourceSchemas().find((s) => s['x-resource']!.name === 'authors')!;
    const endpoints = authors['x-endpoints']!;
    endpoints.updateMany = { method: 'POST', path: '/artmanager/authors/updateMany', ids: 'ids' };
    try {
      const { calls, dp } = fake(() => ({ ids: [1, 2] }));
      const r = await dp.updateMany('authors', { ids: ['1', 2], data: { wxIsEnable: 1, createTime: 'x' } });
      expect(calls).toEqual([
        {
          url: '/artmanager/authors/updateMany',
          method: 'POST',
          body: { ids: [1, 2], data: { wxIsEnable: 1 } },
        },
      ]);
      expect(r).toEqual({ data: ['1', 2] });
    } finally {
      delete endpoints.updateMany;
    }
  });

  it('delete authors / artworks: POST deleteAuthors / deleteArt {id}, answering the previous record', async () => {
    const { calls, dp } = fake(() => ({ ids: [5] }));
    const r = await dp.delete('authors', { id: 5, previousData: { id: 5, authorName: 'A' } });
    await dp.delete('artworks', { id: 6 });
    expect(calls).toEqual([
      { url: '/artmanager/authors/deleteAuthors', method: 'POST', body: { id: 5 } },
      { url: '/artmanager/artwork/deleteArt', method: 'POST', body: { id: 6 } },
    ]);
    expect(r.data).toEqual({ id: 5, authorName: 'A' });
  });

  it('deleteMany artworks: one POST deleteArt {ids}', async () => {
    const { calls, dp } = fake(() => ({ ids: [1, 2] }));
    expect(await dp.deleteMany('artworks', { ids: [1, 2] })).toEqual({ data: [1, 2] });
    expect(calls).toEqual([{ url: '/artmanager/artwork/deleteArt', method: 'POST', body: { ids: [1, 2] } }]);
  });

  it('a verb the schema does not declare rejects with a message naming resource and verb, without calling', async () => {
    const { calls, dp } = fake(() => ({}));
    await expect(
      dp.update('bidUsers', { id: 1, data: { account: 'a' }, previousData: { id: 1 } }),
    ).rejects.toThrow('Resource "bidUsers" declares no x-endpoints.update');
    await expect(dp.delete('platformUsers', { id: 1 })).rejects.toThrow(/x-endpoints\.delete/);
    await expect(dp.getOne('nope', { id: 1 })).rejects.toThrow(/nope/);
    expect(calls).toEqual([]);
  });

  it('upload: POST /artmanager/upload multipart with the file under "file"', async () => {
    const { calls, dp } = fake(() => ({ url: '/uploads/x.png' }));
    const r = await dp.upload(new Blob(['png'], { type: 'image/png' }), undefined, 'x.png');
    expect(calls[0].url).toBe('/artmanager/upload');
    expect(calls[0].method).toBe('POST');
    const form = calls[0].body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect((form.get('file') as File).name).toBe('x.png');
    expect(r).toEqual({ url: '/uploads/x.png' });
  });

  it('upload with a target asks for the schema limits of that field (array indexes dropped)', async () => {
    const { calls, dp } = fake(() => ({ url: '/uploads/x.pdf' }));
    await dp.upload(
      new Blob(['%PDF-']),
      { resource: 'artworks', field: 'traceability.2.attachment' },
      'x.pdf',
    );
    expect(calls[0].url).toBe('/artmanager/upload?resource=artworks&field=traceability.attachment');
  });

  it('createWx: POST /artmanager/authors/createWx {id}', async () => {
    const { calls, dp } = fake(() => ({ id: 4, wxCode: 'WX1' }));
    expect(await dp.createWx('4')).toEqual({ id: 4, wxCode: 'WX1' });
    expect(calls).toEqual([{ url: '/artmanager/authors/createWx', method: 'POST', body: { id: 4 } }]);
  });

  it('toQuery leaves out empty values and joins arrays', () => {
    expect(toQuery({ a: 1, b: '', c: null, d: undefined, e: [1, 2] })).toBe('?a=1&e=1%2C2');
    expect(toQuery({})).toBe('');
  });
});

describe('dataProvider: x-endpoints options sort: false and idFrom (the ledger resources)', () => {
  const TX = 'ab'.repeat(32);
  const block = (number: number) => ({
    channelId: 1,
    channel: 'artchannel',
    number,
    blockHash: 'cd'.repeat(32),
  });

  it('getList blocks: the channel filter in the query, no sort/order (sort: false), ids "channelId:number"', async () => {
    const { calls, dp } = fake(() => page([block(5), block(4)], 6));
    const r = await dp.getList('blocks', {
      pagination: { page: 2, perPage: 2 },
      sort: { field: 'id', order: 'ASC' },
      filter: { channelId: 1, from: '2026-11-22T10:00', to: '' },
    });
    expect(calls).toEqual([
      {
        url: '/baas-api/blocks?page=2&pageSize=2&channelId=1&from=2026-11-22T10%3A00',
        method: 'GET',
        body: undefined,
      },
    ]);
    expect(r).toEqual({
      data: [
        { id: '1:5', ...block(5) },
        { id: '1:4', ...block(4) },
      ],
      total: 6,
    });
  });

  it('getOne blocks: the compound id split into channelId and number; the answer keeps that id', async () => {
    const { calls, dp } = fake(() => ({ ...block(42), transactions: [] }));
    const r = await dp.getOne('blocks', { id: '1:42' });
    expect(calls).toEqual([{ url: '/baas-api/block?channelId=1&number=42', method: 'GET', body: undefined }]);
    expect(r.data).toMatchObject({ id: '1:42', number: 42, transactions: [] });
  });

  it('getOne blocks with an id of the wrong shape rejects without calling', async () => {
    const { calls, dp } = fake(() => ({}));
    await expect(dp.getOne('blocks', { id: '42' })).rejects.toThrow(
      'blocks: id "42" must be channelId:number (2 parts joined with ":")',
    );
    expect(calls).toEqual([]);
  });

  it('transactions: a string id (txId) for getOne and getList records', async () => {
    const tx = { txId: TX, channelId: 1, blockNumber: 3, txIndex: 0 };
    const one = fake(() => tx);
    expect((await one.dp.getOne('transactions', { id: TX })).data).toEqual({ id: TX, ...tx });
    expect(one.calls[0].url).toBe(`/baas-api/transaction?txId=${TX}`);
    const list = fake(() => page([tx]));
    const r = await list.dp.getList('transactions', {
      pagination: { page: 1, perPage: 20 },
      sort: { field: 'txIndex', order: 'DESC' },
      filter: { channelId: 1, blockNumber: 3 },
    });
    expect(list.calls[0].url).toBe('/baas-api/transactions?page=1&pageSize=20&channelId=1&blockNumber=3');
    expect(r.data[0].id).toBe(TX);
  });

  it('channels and chaincodes keep their integer ids and send no sort', async () => {
    const { calls, dp } = fake(() => page([{ id: 1, name: 'artchannel' }]));
    const r = await dp.getList('channels', {
      pagination: { page: 1, perPage: 20 },
      sort: { field: 'name', order: 'ASC' },
      filter: {},
    });
    expect(calls[0].url).toBe('/baas-api/channels?page=1&pageSize=20');
    expect(r.data).toEqual([{ id: 1, name: 'artchannel' }]);
    const cc = fake(() => ({ id: 7, name: 'art' }));
    await cc.dp.getOne('chaincodes', { id: '7' });
    expect(cc.calls[0].url).toBe('/baas-api/chaincode?id=7');
  });

  it('withIds and idParams: one part per field, digits as numbers, a record missing a part is an error', () => {
    const spec = { method: 'GET' as const, path: '/x', idFrom: ['channelId', 'number'] };
    expect(withIds(spec, [{ channelId: 2, number: 0 }])).toEqual([{ id: '2:0', channelId: 2, number: 0 }]);
    expect(() => withIds(spec, [{ channelId: 2 }])).toThrow('without "number"');
    expect(withIds({}, [{ id: 9 }])).toEqual([{ id: 9 }]);
    expect(idParams(spec, '2:0', 'blocks')).toEqual({ channelId: 2, number: 0 });
    expect(idParams({ ...spec, id: 'key' }, 'a:b', 'x')).toEqual({ key: 'a:b' });
    expect(idParams({ method: 'GET', path: '/x' }, 5, 'x')).toEqual({ id: 5 });
  });
});

describe('writableFields: what a create/update sends', () => {
  /** An object array whose items have an optional, non-nullable integer (found by the schema fuzzer). */
  const loan = {
    $id: 'loan',
    type: 'object',
    properties: {
      id: { type: 'integer', readOnly: true },
      title: { type: 'string' },
      note: { type: ['string', 'null'] },
      venues: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            place: { type: 'string' },
            days: { type: 'integer' },
            memo: { type: ['string', 'null'] },
          },
          required: ['place'],
        },
      },
      address: { type: 'object', properties: { city: { type: 'string' } } },
      survey: {
        type: 'object',
        properties: { insurer: { type: 'string' }, value: { type: 'number' } },
        required: ['insurer'],
      },
      policy: {
        type: 'object',
        properties: { number: { type: 'string' } },
        required: ['number'],
      },
    },
    required: ['title', 'policy'],
  } as unknown as ResourceSchema;

  it('drops the nulls react-admin gives for absent item and nested properties the schema does not allow', () => {
    const form = {
      id: 3,
      title: 'T',
      note: null,
      venues: [
        { place: 'A', days: 4, memo: null },
        { place: 'B', days: null },
      ],
      address: { city: null },
    };
    expect(writableFields(loan, form)).toEqual({
      title: 'T',
      note: null,
      venues: [{ place: 'A', days: 4, memo: null }, { place: 'B' }],
      address: {},
    });
  });

  it('an optional object left empty is absent where its required would refuse {}; a required one stays', () => {
    const form = { title: 'T', survey: { insurer: null, value: null }, policy: { number: null } };
    expect(writableFields(loan, form)).toEqual({ title: 'T', policy: {} });
    expect(writableFields(loan, { title: 'T', survey: { insurer: 'I', value: null } })).toEqual({
      title: 'T',
      survey: { insurer: 'I' },
    });
  });

  it('an untouched object array equals the stored one once prepared, so update leaves it out', () => {
    const stored = { id: 3, title: 'T', venues: [{ place: 'A', days: 4 }, { place: 'B' }] };
    const form = {
      ...stored,
      title: 'T edited',
      venues: [
        { place: 'A', days: 4 },
        { place: 'B', days: null },
      ],
    };
    const sent = writableFields(loan, form);
    expect(sent.venues).toEqual(stored.venues);
  });
});
