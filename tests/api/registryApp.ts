/**
 * The app of the registry call tests (registry-calls.test.ts, registry-files.test.ts): a test app with
 * one author (Qi Baishi) and one of their artworks (Shrimps), as live bindings the test files import.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { addArtwork, addAuthor, createTestApp, multipart, type TestApp } from './helpers';

export let t: TestApp;
export let authorId = 0;
export let artId = 0;

/** Registers the file's beforeAll (app, author, artwork) and afterAll (close). */
export function setUpRegistryApp(): void {
  beforeAll(async () => {
    t = await createTestApp();
    authorId = await addAuthor(t, 'Qi Baishi');
    artId = await newArtwork('Shrimps');
  });
  afterAll(() => t?.close());
}

/** Adds an artwork of the author, ink on paper unless `extra` says otherwise; resolves its id. */
export const newArtwork = (name: string, extra: Record<string, unknown> = {}): Promise<number> =>
  addArtwork(t, authorId, name, { classify: 'Ink', texture: 'Paper', ...extra });

export const MB2 = 2 * 1024 * 1024;
/** A PNG by its signature (the content check reads the magic number), unique by its random tail. */
export const png = (size = 64) =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(size - 8)]);
export const pdf = () => Buffer.from(`%PDF-1.4\n% ${randomBytes(8).toString('hex')}\n%%EOF\n`);
export const exe = () => Buffer.concat([Buffer.from('MZ'), randomBytes(62)]);

/** POSTs a multipart body (`fields`, then `file`) to `url`, as admin unless `token` is given. */
export const send = (
  url: string,
  fields: Record<string, string | number>,
  file?: { bytes: Buffer; filename: string },
  token?: string | null,
) => t.call({ method: 'POST', url, ...multipart(fields, file), token });

/**
 * POSTs a PNG one byte over 2 MB to `url` with `fields`; asserts the refusal: 400, "file: must be at most
 * 2 MB". Resolves the response body for the caller's further checks.
 */
export async function expectOver2MbRefused(url: string, fields: Record<string, string | number> = {}) {
  const r = await send(url, fields, { bytes: png(MB2 + 1), filename: 'big.png' });
  expect(r.status).toBe(400);
  expect(r.body.msg).toBe('file: must be at most 2 MB');
  return r.body;
}

/** The entries of GET /artmanager/oss/dir/<dir>. */
export const listDir = async (dir: string) =>
  (await t.get(`/artmanager/oss/dir/${dir}`)).body.data.list as {
    name: string;
    url: string;
  }[];
