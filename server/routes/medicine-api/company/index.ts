/**
 * `/medicine-api/company/*`: the Medicine section's companies (admin only, from
 * schemas/company.schema.json `x-roles`); see docs/api.md. Bodies and queries are validated by the
 * schema's variants (`company.listQuery`, `company.create`, `company.update`).
 */
import type { FastifyInstance } from 'fastify';
import { ok } from '../../../plugins/app/envelope';
import {
  createCompany,
  deleteCompanies,
  getCompany,
  listCompanies,
  updateCompany,
} from '../../../repositories/companies.repository';
import type { ListQuery } from '../../../repositories/listQuery';
import { deleteBody, guardFor, idQuery, idsOf } from '../../artmanager/common';

export default async function companyRoutes(app: FastifyInstance) {
  const onRequest = guardFor(app, 'company');

  app.get('/getList', { onRequest, schema: { querystring: { $ref: 'company.listQuery' } } }, async (req) =>
    ok(await listCompanies(app.db, app.dialect, req.query as ListQuery)),
  );

  app.get('/getInfo', { onRequest, schema: { querystring: idQuery('id') } }, async (req) =>
    ok(await getCompany(app.db, (req.query as { id: number }).id)),
  );

  app.post('/addCompany', { onRequest, schema: { body: { $ref: 'company.create' } } }, async (req) =>
    ok(await createCompany(app.db, req.body as any)),
  );

  app.post('/updateCompany', { onRequest, schema: { body: { $ref: 'company.update' } } }, async (req) =>
    ok(await updateCompany(app.db, req.body as any)),
  );

  app.post('/deleteCompany', { onRequest, schema: { body: deleteBody } }, async (req) =>
    ok(await deleteCompanies(app.db, idsOf(req.body as any))),
  );
}
