/**
 * The console's import calls (admin only; kernel/server/importJobs.ts does the work), under `/dev-api/import`:
 * - `POST /dryRun?resource=` multipart (part `file`: CSV, XLSX or JSON, at most `IMPORT_MAX_BYTES`, default
 *   100 MiB) → the job's summary: the header row's unknown and missing columns, counts of new, changed,
 *   unchanged and rejected rows, a sample diff, the first rejects; nothing written yet. The file is
 *   streamed to `<DATA_DIR>/import-uploads/` (never held in memory), read from there and deleted after
 *   the dry run. A larger file is refused with 413 naming `file` and the limit (keyword `importMaxSize`);
 *   one that cannot be read (its text encoding, its format, no known column) with 400 naming `file`;
 * - `GET /jobs?resource=` → the unfinished jobs of a resource (the console offers to continue one);
 * - `GET /job?id=` → a job's summary;
 * - `POST /commit {id}` → writes the next batch (one transaction, audited) and answers the summary;
 *   the console calls it until `status` is `done`;
 * - `POST /discard {id}` → the job is dropped from the unfinished ones;
 * - `GET /rejects?id=` → the reject report as CSV (row, field, reason in the caller's language; the column
 *   headers from the message catalogues, common/messages `import.report*`).
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { formatBytes } from '../../../../common/fileTypes';
import { languageOf, msg, serverMessages } from '../../../../common/messages/index';
import { actorOf } from '../../../db/audit';
import { ok } from '../../../plugins/app/envelope';
import multipart from '../../../plugins/external/multipart';
import { ApiError, invalidField } from '../../../errors';
import { multipartError } from '../../../storage/multipartError';
import {
  commitBatch,
  discard,
  dryRun,
  rejectReport,
  repositoryOf,
  summary,
  unfinished,
} from '../../../../kernel/server/importJobs';
import { csvStream } from '../../../../kernel/server/exportRoutes';
import type { Repository } from '../../../../kernel/server/repository';

const resourceQuery = {
  type: 'object',
  properties: { resource: { type: 'string', maxLength: 64 } },
  required: ['resource'],
  additionalProperties: false,
} as const;
const idParam = {
  type: 'object',
  properties: { id: { type: 'string', pattern: '^[0-9a-f-]{36}$' } },
  required: ['id'],
  additionalProperties: false,
} as const;

/** The 413 refusing an import file over `limit` bytes (field `file`, keyword `importMaxSize`). */
function tooLarge(limit: number): ApiError {
  const size = formatBytes(limit);
  // The envelope's code of a body over a limit is 413 too (server/plugins/app/envelope.ts).
  return new ApiError(413, 413, msg('request.fields'), {
    errors: [
      {
        field: 'file',
        keyword: 'importMaxSize',
        params: { limit, size },
        message: `file: must be at most ${size} (the import limit, IMPORT_MAX_BYTES)`,
      },
    ],
  });
}

/**
 * Streams the multipart part `file` of `req` to a new file under `dir`, at most `limit` bytes: its name
 * and path. The caller deletes the file.
 * @throws 400 naming `file` when there is none or the body is malformed, 413 when it is over `limit`
 */
async function receiveFile(
  req: FastifyRequest,
  dir: string,
  limit: number,
): Promise<{ name: string; path: string }> {
  let part;
  try {
    part = await req.file({ limits: { fileSize: limit, files: 1 } });
  } catch (e) {
    throw multipartError(e, 'file') ?? e;
  }
  if (!part || part.fieldname !== 'file')
    throw invalidField('file', 'required', 'send the file as the multipart/form-data part "file"');
  await mkdir(dir, { recursive: true });
  const path = join(dir, randomUUID());
  try {
    await pipeline(part.file, createWriteStream(path));
    if (part.file.truncated) throw tooLarge(limit);
  } catch (e) {
    await rm(path, { force: true });
    if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(limit);
    throw multipartError(e, 'file') ?? e;
  }
  return { name: part.filename, path };
}

export default async function importRoutes(app: FastifyInstance) {
  await app.register(multipart);
  const onRequest = app.requireRoles(['admin']);
  const repos = app.resources as unknown as Record<string, Repository<object>>;
  const lang = (req: { headers: Record<string, unknown> }) =>
    languageOf(req.headers['accept-language'] as string);

  app.post<{ Querystring: { resource: string } }>(
    '/dryRun',
    {
      onRequest,
      schema: { summary: 'Check a CSV, XLSX or JSON file for an import', querystring: resourceQuery },
    },
    async (req) => {
      const repo = repositoryOf(repos, req.query.resource);
      const dir = join(app.config.dataDir, 'import-uploads');
      const file = await receiveFile(req, dir, app.config.importMaxBytes);
      try {
        return ok(await dryRun(app.db, repo, file, actorOf(req).account, lang(req)));
      } finally {
        await rm(file.path, { force: true });
      }
    },
  );
  app.get<{ Querystring: { resource: string } }>(
    '/jobs',
    { onRequest, schema: { summary: 'Unfinished import jobs of a resource', querystring: resourceQuery } },
    async (req) => ok(await unfinished(app.db, req.query.resource, lang(req))),
  );
  app.get<{ Querystring: { id: string } }>(
    '/job',
    { onRequest, schema: { summary: 'An import job', querystring: idParam } },
    async (req) => ok(await summary(app.db, req.query.id, lang(req))),
  );
  app.post<{ Body: { id: string } }>(
    '/commit',
    { onRequest, schema: { summary: 'Write the next batch of an import job', body: idParam } },
    async (req) => {
      const job = await summary(app.db, req.body.id, lang(req));
      const repo = repositoryOf(repos, job.resource);
      return ok(await commitBatch(app.db, repo, req.body.id, actorOf(req), lang(req)));
    },
  );
  app.post<{ Body: { id: string } }>(
    '/discard',
    { onRequest, schema: { summary: 'Discard an import job', body: idParam } },
    async (req) => {
      await discard(app.db, req.body.id);
      return ok(null);
    },
  );
  app.get<{ Querystring: { id: string } }>(
    '/rejects',
    { onRequest, schema: { summary: 'The reject report of an import job (CSV)', querystring: idParam } },
    async (req, reply) => {
      const l = lang(req);
      const rejects = await rejectReport(app.db, req.query.id, l);
      const text = serverMessages[l];
      const head = [text['import.reportRow'], text['import.reportField'], text['import.reportReason']];
      const rows = [head, ...rejects.map((r) => [r.row, r.field, r.reason])];
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="rejects-${req.query.id}.csv"`);
      return reply.send(
        csvStream(
          (async function* () {
            yield* rows;
          })(),
        ),
      );
    },
  );
}
