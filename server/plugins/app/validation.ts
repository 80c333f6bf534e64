/**
 * Validation with the shared schema registry: route schemas `$ref` the resource schemas and their
 * variants (`author.create`, `artwork.listQuery`, ...; common/schemaRegistry.ts). Such a route schema
 * (`{ $ref: '<id>' }`, or a schema whose `$id` is a registry id) runs the validator codegen precompiled
 * (common/generated/*Validators.ts), the same code the console runs; any other route schema is compiled at
 * start-up by a run-time ajv holding the registry (common/schemaCompiler.ts). Query strings and path
 * parameters are validated by the build that coerces types ("2" → 2); bodies by the one that does not.
 * Unknown fields are refused (the schemas say `additionalProperties: false`).
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { SchemaValidator } from '../../../common/schemaRegistry';
import { createAjv } from '../../../common/schemaCompiler';
import { queryValidatorFor, validatorFor } from '../../../common/validators';

/**
 * The registry id a route schema stands for: `id` of `{ $ref: 'id' }` (nothing else in the schema) or
 * the schema's own `$id`; undefined for an ad-hoc schema.
 */
export function registryIdOf(schema: unknown): string | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const s = schema as { $ref?: unknown; $id?: unknown };
  const keys = Object.keys(s);
  if (keys.length === 1 && typeof s.$ref === 'string') return s.$ref;
  if (typeof s.$id === 'string') return s.$id;
  return undefined;
}

export default fp(async function validation(app: FastifyInstance) {
  const compilers = { body: createAjv(), query: createAjv({ coerceTypes: true }) };
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const build = httpPart === 'querystring' || httpPart === 'params' ? 'query' : 'body';
    const id = registryIdOf(schema);
    if (id) {
      try {
        const precompiled: SchemaValidator = build === 'query' ? queryValidatorFor(id) : validatorFor(id);
        return precompiled;
      } catch {
        // Not a registry id: the run-time ajv resolves it (or reports the unknown reference).
      }
    }
    return compilers[build].compile(schema);
  });
});
