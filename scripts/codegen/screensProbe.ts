/**
 * Probing the server's calls for docs/screens-and-calls.md (scripts/codegen/screens.ts): each call asked
 * once with an empty input (`probeCall`) and its status in the table (`probeStatus`).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

type Json = Record<string, any>;

/** What the server answered to one call with an empty input. */
export interface ProbeResult {
  status: number;
  code: unknown;
  msg: string;
  /** `data.errors[].field` of a refusal. */
  fields: string[];
  /** The call reads multipart/form-data (a JSON body was refused naming Content-Type). */
  multipart: boolean;
  /** The answer was JSON. */
  json: boolean;
  /** The answer is a stream of server-sent events (`text/event-stream`: GET /dev-api/events), left after its headers. */
  stream?: boolean;
}

/** The URL a probe asks: `{*}` (a wildcard suffix) filled with a directory name. */
/**
 * The URL a probe asks for `path`: `{channel}` is the channel every ledger has (artchannel), a log's tile
 * wildcard the first partial tile of level 0 (C2SP tlog-tiles; it exists once the log has an entry), any
 * other wildcard `probe`.
 */
export const probeUrl = (path: string) =>
  path
    .replace('{channel}', 'artchannel')
    .replace('{*}', /\/log\/[^/]+\/tile\/\{\*\}$/.test(path) ? '0/000.p/1' : 'probe');

function multipartEmpty() {
  const boundary = `b${randomBytes(8).toString('hex')}`;
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.from(`--${boundary}--\r\n`),
  };
}

/**
 * Asks `app` for `METHOD path` with `token` (`''`: none) and an empty input: no query (GET), `{}` (POST), or, when
 * the call answers that it reads multipart/form-data (406/415 naming Content-Type), an empty form.
 */
export async function probeCall(
  app: FastifyInstance,
  token: string,
  method: string,
  path: string,
): Promise<ProbeResult> {
  const ask = async (body: { headers?: Record<string, string>; payload?: unknown }) => {
    // As a stream: an event stream never ends, so it is left once its headers are there.
    const res = await app.inject({
      method: method as 'GET',
      url: probeUrl(path),
      headers: { ...(token ? { 'x-token': token } : {}), ...(body.headers ?? {}) },
      ...(body.payload !== undefined ? { payload: body.payload as string } : {}),
      payloadAsStream: true,
    });
    const answer = res.stream();
    if (String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
      answer.on('error', () => undefined);
      answer.destroy();
      return {
        status: res.statusCode,
        code: undefined,
        msg: '',
        fields: [] as string[],
        json: false,
        stream: true,
      };
    }
    const chunks: Buffer[] = [];
    for await (const chunk of answer) chunks.push(Buffer.from(chunk as Buffer));
    const text = Buffer.concat(chunks).toString('utf8');
    let json: Json = {};
    let isJson = true;
    try {
      json = JSON.parse(text) as Json;
    } catch {
      isJson = false;
      json = { msg: text.slice(0, 80) };
    }
    const errors: Json[] = Array.isArray(json.data?.errors) ? json.data.errors : [];
    return {
      status: res.statusCode,
      code: json.code,
      msg: String(json.msg ?? ''),
      fields: errors.map((e) => String(e.field)),
      json: isJson,
    };
  };
  const r = await ask(method === 'POST' ? { payload: {} } : {});
  if ((r.status === 406 || r.status === 415) && r.fields.includes('Content-Type'))
    return { ...(await ask(multipartEmpty())), multipart: true };
  return { ...r, multipart: false };
}

/** The roles column of a call a platform user's token opens (not a console account's). */
export const PLATFORM_USER = 'platform user';

/**
 * "answers", "answers; empty input refused naming `f`", or "BROKEN: …" (any other answer). A call of the
 * platform users' sessions (`platformSession`, roles "platform user") is asked with the admin's token too:
 * it must refuse it as an unknown token (401, code 2), which is written as it answering.
 */
export function probeStatus(r: ProbeResult, platformSession = false): string {
  if (platformSession && r.status === 401 && r.code === 2)
    return "answers; refuses a console account's token (401, code 2)";
  if (r.status === 200 && r.code === 0) return 'answers';
  // The console's live updates: a stream of server-sent events (GET /dev-api/events).
  if (r.status === 200 && r.stream) return 'answers (a stream of server-sent events, not an envelope)';
  // The one call answering a document of its own instead of the envelope (GET /dev-api/openapi.json).
  if (r.status === 200 && r.code === undefined && r.json) return 'answers (a JSON document, not an envelope)';
  // The transparency log's own formats (C2SP tlog-checkpoint notes, tlog-tiles), text or binary.
  if (r.status === 200 && !r.json) return 'answers (a C2SP document: text or binary, not JSON)';
  if (r.status === 400 && r.code === 400 && r.fields.length)
    return `answers; empty input refused naming ${[...new Set(r.fields)]
      .slice(0, 3)
      .map((f) => (f ? `\`${f}\`` : 'the body'))
      .join(', ')}`;
  return `BROKEN: ${r.status} ${r.msg}`.trim();
}

/** True when a table status says the call works (see `probeStatus`). */
export const isAnswering = (status: string) => status.startsWith('answers');
