import { describe, expect, it } from 'vitest';
import { HttpError } from 'ra-core';
import { createHttpClient, fieldErrorsOf } from './httpClient';
import { RA_MESSAGE_PREFIX } from '../i18n/validation';

function fakeFetch(status: number, body: unknown) {
  const seen: { url: string; init: RequestInit }[] = [];
  const f = (async (url: string, init: RequestInit) => {
    seen.push({ url, init });
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });
  }) as unknown as typeof fetch;
  return { seen, f };
}

describe('httpClient: envelope transport', () => {
  it('sends X-Token from the token source and JSON content type for string bodies', async () => {
    const { seen, f } = fakeFetch(200, { code: 0, msg: 'ok', data: { a: 1 } });
    const client = createHttpClient({ fetch: f, token: () => 'tok123' });
    const r = await client('/x', { method: 'POST', body: '{"a":1}' });
    const headers = seen[0].init.headers as Headers;
    expect(headers.get('X-Token')).toBe('tok123');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(seen[0].init.method).toBe('POST');
    expect(r.json.data).toEqual({ a: 1 });
  });

  it('sends no X-Token when logged out and no JSON content type for FormData', async () => {
    const { seen, f } = fakeFetch(200, { code: 0, msg: 'ok', data: null });
    await createHttpClient({ fetch: f, token: () => undefined })('/u', {
      method: 'POST',
      body: new FormData(),
    });
    const headers = seen[0].init.headers as Headers;
    expect(headers.has('X-Token')).toBe(false);
    expect(headers.has('Content-Type')).toBe(false);
  });

  it.each([[{ code: 0, msg: '', data: 1 }], [{ code: 200, msg: '', data: 1 }], [{ state: 'OK', data: 1 }]])(
    'accepts %j as success',
    async (body) => {
      const { f } = fakeFetch(200, body);
      await expect(createHttpClient({ fetch: f, token: () => 't' })('/x')).resolves.toMatchObject({
        status: 200,
      });
    },
  );

  it('rejects a failed envelope with an HttpError carrying msg, status and the envelope', async () => {
    const env = { code: 409, msg: 'Author 3 still has 2 works', data: null };
    const { f } = fakeFetch(409, env);
    const err = await createHttpClient({ fetch: f, token: () => 't' })('/x').catch((e) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err.message).toBe('Author 3 still has 2 works');
    expect(err.status).toBe(409);
    expect(err.body).toEqual(env);
  });

  it('rejects a refusal without msg with "error" (the product), not the HTTP status text', async () => {
    const { f } = fakeFetch(500, { code: 500, data: null });
    const err = await createHttpClient({ fetch: f, token: () => 't' })('/x').catch((e) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err.message).toBe('error');
    expect(err.status).toBe(500);
  });

  it('rejects code 2 (token expired) with status 401 and body.code 2', async () => {
    const { f } = fakeFetch(401, { code: 2, msg: 'token expired', data: null });
    const err = await createHttpClient({ fetch: f, token: () => 't' })('/x').catch((e) => e);
    expect(err.status).toBe(401);
    expect(err.body.code).toBe(2);
  });

  it('maps data.errors (FieldError[]) to per-field translatable messages in body.errors', async () => {
    const env = {
      code: 400,
      msg: 'artWorkName: must be at most 60 wide',
      data: {
        errors: [
          {
            field: 'artWorkName',
            keyword: 'x-maxWidth',
            params: { limit: 60, width: 62 },
            message: 'artWorkName: ...',
          },
          { field: 'baseInfo.size', keyword: 'weird', params: {}, message: 'baseInfo.size: odd' },
        ],
      },
    };
    const { f } = fakeFetch(400, env);
    const err = await createHttpClient({ fetch: f, token: () => 't' })('/x').catch((e) => e);
    expect(Object.keys(err.body.errors)).toEqual(['artWorkName', 'baseInfo.size']);
    const parsed = JSON.parse(err.body.errors.artWorkName.slice(RA_MESSAGE_PREFIX.length));
    expect(parsed).toEqual({
      message: 'baas.validation.x-maxWidth',
      args: { limit: 60, width: 62, chars: 30 },
    });
    const odd = JSON.parse(err.body.errors['baseInfo.size'].slice(RA_MESSAGE_PREFIX.length));
    expect(odd).toEqual({ message: 'baas.validation.invalid', args: { message: 'baseInfo.size: odd' } });
  });

  it('rejects a non-JSON body with the HTTP status', async () => {
    const { f } = fakeFetch(502, '<html>Bad gateway</html>');
    const err = await createHttpClient({ fetch: f, token: () => 't' })('/x').catch((e) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err.status).toBe(502);
  });

  it('fieldErrorsOf is undefined when there are no field errors', () => {
    expect(fieldErrorsOf({ code: 404, msg: 'x', data: null })).toBeUndefined();
    expect(fieldErrorsOf({ code: 400, msg: 'x', data: { errors: [] } })).toBeUndefined();
  });

  it('gives up after the timeout with an HttpError that says so', async () => {
    // A fetch that never answers on its own, but honours the abort signal as the real one does.
    const hang = ((_url: string, init?: RequestInit) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
      )) as unknown as typeof fetch;
    const err = await createHttpClient({ fetch: hang, token: () => 't', timeoutMs: 20 })('/slow').catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(HttpError);
    expect(err.message).toBe('No answer from the server within 0.02 s');
    expect(err.body).toMatchObject({ timeout: true });
  });
});
