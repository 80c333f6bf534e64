/**
 * The console's import calls (admin only; kernel/server/importJobs.ts does the work), under `/dev-api/import`:
 * - `POST /dryRun?resource=` multipart (part `file`: CSV, XLSX or JSON) → the job's summary: counts of new,
 *   changed, unchanged and rejected rows, a sample diff, the first rejects; nothing written yet;
 * - `GET /jobs?resource=` → the unfinished jobs of a resource (the console offers to continue one);
 * - `GET /job?id=` → a job's summary;
 * - `POST /commit {id}` → writes the next batch (one transaction, audited) and answers the summary;
 *   the console calls it until `status` is `done`;
 * - `POST /discard {id}` → the job is dropped from the unfinished ones;
 * - `GET /rejects?id=` → the reject report as CSV (row, field, reason in the caller's language; the column
 *   headers from the message catalogues, common/messages `import.report*`).
 */
import type { FastifyInstance } from 'fastify';
import { languageOf, serverMessages } from '../../../../common/messages/index';
import { actorOf } from '../../../db/audit';
import { ok } from '../../../plugins/app/envelope';
import multipart from '../../../plugins/external/multipart';
import { invalidField } from '../../../errors';
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
      const part = await req.file();
      if (!part) throw invalidField('file', 'required', 'a file is required');
      const data = await part.toBuffer();
      return ok(await dryRun(app.db, repo, { name: part.filename, data }, actorOf(req).account, lang(req)));
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
