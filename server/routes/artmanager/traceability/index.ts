/**
 * `POST /artmanager/traceability/addTraceabilityCert` (admin, from schemas/artwork.schema.json `x-roles`):
 * multipart, text fields `artId`, `step` (one of the schema's traceability steps: machineInspection,
 * expertAssessment, judicialCertification, digitalWatermark) and optionally `result`, `operator`, `time`,
 * then the attachment `file` (limits from `traceability.items.attachment.x-upload`: an image or PDF, at most
 * 10 MB, checked by content) → the artwork, whose last step named `step` gets the attachment (and the
 * given texts), or, when it has none, a new step at the end. 400 naming the field at fault (`step`,
 * `traceability` past `maxItems`, `file`), 404 for an unknown artwork; nothing is stored when refused.
 * The write goes through the artworks' repository, whose update validation also checks the texts.
 */
import type { FastifyInstance } from 'fastify';
import { uploadSpecAt } from '../../../../common/fileTypes';
import { schemas } from '../../../../kernel/dialect/schemaRegistry';
import { validatorFor } from '../../../../kernel/dialect/validators';
import { formatErrors } from '../../../../kernel/dialect/schemaRegistry';
import { Codes } from '../../../../common/envelope';
import { ok } from '../../../plugins/app/envelope';
import { ApiError, invalidField } from '../../../plugins/app/errors';
import { receiveUpload } from '../../../storage/uploads';
import { idField } from '../authors/registry';
import { actorOf } from '../../../../kernel/server/audit';
import { msg } from '../../../../common/messages/index';
import multipart from '../../../plugins/external/multipart';

type Step = Record<string, unknown> & { step: string };

export default async function traceabilityRoutes(app: FastifyInstance) {
  // multipart/form-data parsing (and @fastify/multipart's per-request hooks) only in this context (issue 10).
  await app.register(multipart);
  const schema = schemas.artwork;
  const onRequest = app.requireRoles(schema['x-roles'] ?? ['admin']);
  const spec = uploadSpecAt(schema, 'traceability.attachment')!;
  const trace = schema.properties.traceability;
  const steps = trace.items!.properties!.step.enum as string[];
  const max = trace.maxItems as number;

  app.post('/addTraceabilityCert', { onRequest }, async (req) => {
    let id = 0;
    let next: Step[] = [];
    let at = -1;
    await receiveUpload(app, req, spec, 'artworks/traceability', {
      allowPolicy: false,
      check: async (fields) => {
        id = idField(fields, 'artId');
        if (!steps.includes(fields.step))
          throw invalidField('step', 'enum', `must be one of ${steps.join(', ')}`, { allowedValues: steps });
        const current = ((await app.resources.artworks.getOne(app.db, id)) as { traceability?: Step[] })
          .traceability;
        next = structuredClone(current ?? []);
        at = next.map((s) => s.step).lastIndexOf(fields.step);
        if (at < 0) {
          if (next.length >= max)
            throw invalidField('traceability', 'maxItems', `at most ${max} steps`, { limit: max });
          next.push({ step: fields.step });
          at = next.length - 1;
        }
        for (const k of ['result', 'operator', 'time']) if (fields[k] !== undefined) next[at][k] = fields[k];
        const validate = validatorFor('artwork.update');
        if (!validate({ id, traceability: next })) {
          const errors = formatErrors(validate.errors);
          throw new ApiError(Codes.INVALID, 400, msg('request.fields'), { errors });
        }
      },
    }).then((got) => {
      next[at].attachment = got.url;
    });
    return ok(await app.resources.artworks.update(app.db, { id, traceability: next as never }, actorOf(req)));
  });
}
