/**
 * Validation with the shared schema registry: route schemas `$ref` the resource schemas and their
 * variants (`author.create`, `artwork.listQuery`, ...; kernel/dialect/schemaRegistry.ts). Such a route schema
 * (`{ $ref: '<id>' }`, or a schema whose `$id` is a registry id) runs the validator codegen precompiled
 * (common/generated/*Validators.ts), the same code the console runs; any other route schema is compiled at
 * start-up by a run-time ajv holding the registry (kernel/dialect/schemaCompiler.ts). Query strings and path
 * parameters are validated by the build that coerces types ("2" → 2); bodies by the one that does not.
 * Unknown fields are refused (the schemas say `additionalProperties: false`).
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type Ajv from 'ajv';
import type { AnySchema } from 'ajv';
import type { SchemaValidator } from '../dialect/schemaRegistry';
import { createAjv } from '../dialect/schemaCompiler';
import { queryValidatorFor, validatorFor } from '../dialect/validators';

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

/**
 * The query string of a call that takes no parameter: any parameter is refused (400 naming it), as the
 * kernel's list calls refuse unknown ones. Every hand-written GET route declares its query string, this
 * one when it has none (docs/api.md).
 */
export const NO_QUERY = { type: 'object', properties: {}, additionalProperties: false } as const;

/** The run-time compilers of ad-hoc route schemas: bodies (no coercion) and query strings (coercion). */
export interface RouteCompilers {
  body: Ajv;
  query: Ajv;
}

/** New {@link RouteCompilers} (each an ajv holding the registry, kernel/dialect/schemaCompiler.ts). */
export function routeCompilers(): RouteCompilers {
  return { body: createAjv(), query: createAjv({ coerceTypes: true }) };
}

/**
 * The validator of one route schema (`httpPart`: fastify's `body`, `querystring`, `params`, `headers`):
 * the precompiled function when the schema stands for a registry id ({@link registryIdOf}), of the query
 * build for `querystring` and `params` and of the body build otherwise; else `compilers` compile it.
 */
export function routeValidator(
  { schema, httpPart }: { schema: unknown; httpPart?: string },
  compilers: RouteCompilers,
): SchemaValidator {
  const build = httpPart === 'querystring' || httpPart === 'params' ? 'query' : 'body';
  const id = registryIdOf(schema);
  if (id) {
    try {
      return build === 'query' ? queryValidatorFor(id) : validatorFor(id);
    } catch {
      // Not a registry id: the run-time ajv resolves it (or reports the unknown reference).
    }
  }
  return compilers[build].compile(schema as AnySchema);
}

export default fp(async function validation(app: FastifyInstance) {
  const compilers = routeCompilers();
  app.setValidatorCompiler((route) => routeValidator(route, compilers));
});
