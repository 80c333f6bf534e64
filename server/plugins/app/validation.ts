/**
 * Validation with the shared schema registry: route schemas `$ref` the resource schemas and their
 * variants (`author.create`, `artwork.listQuery`, ...; common/schemaRegistry.ts). Query strings are
 * validated by an ajv that coerces types ("2" → 2); bodies by one that does not. Unknown fields are
 * refused (the schemas say `additionalProperties: false`).
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { createAjv } from '../../../common/schemaRegistry';

export default fp(async function validation(app: FastifyInstance) {
  const bodyAjv = createAjv();
  const queryAjv = createAjv({ coerceTypes: true });
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'querystring' || httpPart === 'params' ? queryAjv : bodyAjv;
    const id = (schema as { $id?: string }).$id;
    return (id && ajv.getSchema(id)) || ajv.compile(schema);
  });
});
