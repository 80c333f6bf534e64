/**
 * Validation with the shared schema registry: route schemas `$ref` the resource schemas and their
 * variants (`author.create`, `artwork.listQuery`, ...; kernel/dialect/schemaRegistry.ts). Such a route schema
 * (`{ $ref: '<id>' }`, or a schema whose `$id` is a registry id) runs the validator codegen precompiled
 * (common/generated/*Validators.ts), the same code the console runs; any other route schema is compiled at
 * start-up by a run-time ajv holding the registry (kernel/dialect/schemaCompiler.ts). Query strings and path
 * parameters are validated by the build that coerces types ("2" → 2); bodies by the one that does not.
 * Unknown fields are refused (the schemas say `additionalProperties: false`).
 */
import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import {
  SerializerSelector,
  type Serializer,
  type SerializerFactory,
} from '@fastify/fast-json-stringify-compiler';
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

/**
 * Compiled route validators of this process, by build and schema text, and the one pair of run-time
 * compilers behind them: a process that builds several apps (the API tests build hundreds, each with the
 * same routes) compiles each schema once. The compilers hold only the registry, the same in every app.
 */
const validators = new Map<string, SchemaValidator>();
let sharedCompilers: RouteCompilers | undefined;

/** {@link routeValidator} compiled once per process for each build (`httpPart`) and schema text. */
export function cachedRouteValidator(route: { schema: unknown; httpPart?: string }): SchemaValidator {
  const key = `${route.httpPart ?? ''}\0${JSON.stringify(route.schema)}`;
  let validator = validators.get(key);
  if (!validator) {
    validator = routeValidator(route, (sharedCompilers ??= routeCompilers()));
    validators.set(key, validator);
  }
  return validator;
}

/** Compiled response serializers of this process, by external schemas, options and route schema text. */
const serializers = new Map<string, Serializer>();
/** The SHA-256 of each shared schema's text, by the schema object (Fastify passes the same ones again). */
const schemaDigests = new WeakMap<object, string>();

/** A digest of Fastify's shared schemas (`{ $id: schema }`) and serializer options, for the cache key. */
function sharedDigest(externalSchemas: unknown, serializerOpts: unknown): string {
  const hash = createHash('sha256').update(JSON.stringify(serializerOpts ?? null));
  for (const [id, schema] of Object.entries((externalSchemas ?? {}) as Record<string, unknown>)) {
    let digest = typeof schema === 'object' && schema ? schemaDigests.get(schema) : undefined;
    if (!digest) {
      digest = createHash('sha256').update(JSON.stringify(schema)).digest('hex');
      if (typeof schema === 'object' && schema) schemaDigests.set(schema, digest);
    }
    hash.update(`\0${id}\0${digest}`);
  }
  return hash.digest('hex');
}

/**
 * Fastify's `schemaController` option: its default response serializer compiler (fast-json-stringify,
 * through @fastify/fast-json-stringify-compiler) with each serializer compiled once per process for the
 * same shared schemas, options and route schema (a serializer is a pure function of them). Compiling
 * them was most of the time an app took to boot (about 1.5 s of CPU for this app's routes).
 */
export const cachedSchemaController: FastifyServerOptions['schemaController'] = {
  compilersFactory: {
    buildSerializer: ((externalSchemas, serializerOpts) => {
      const compile = SerializerSelector()(externalSchemas, serializerOpts);
      let shared: string | undefined;
      return (route) => {
        shared ??= sharedDigest(externalSchemas, serializerOpts);
        const key = `${shared}\0${JSON.stringify(route.schema)}`;
        let serializer = serializers.get(key);
        if (!serializer) {
          serializer = compile(route);
          serializers.set(key, serializer);
        }
        return serializer;
      };
    }) satisfies SerializerFactory,
  },
};

export default fp(async function validation(app: FastifyInstance) {
  app.setValidatorCompiler((route) => cachedRouteValidator(route));
});
