/**
 * Hooks of the smart-contract templates (schemas/contractTemplate.schema.json): what the template schema's
 * own shape rules (its `paramsSchema` definition) cannot say about a parameter schema:
 * - every name in `required` is a parameter of `properties` (400 on `paramsSchema.required`);
 * - a parameter's limits fit its type (`minimum`/`maximum` on numbers, `minLength`/`maxLength` on strings,
 *   min not above max) and its `default` and `enum` values have its type and pass its limits (400 on
 *   `paramsSchema.properties.<name>`);
 * - the schema compiles (kernel/server/schemaFrom.ts, the run-time ajv contracts are checked with).
 * Contracts made from a template are checked against its schema at their own writes; changing a template
 * does not rewrite them.
 */
import type { ResourceHooks } from '../server/repository';
import { compiledSchema } from '../server/schemaFrom';
import { invalidField } from '../../server/plugins/app/errors';

interface Parameter {
  type: 'string' | 'integer' | 'number' | 'boolean';
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  enum?: unknown[];
  default?: unknown;
}

const NUMERIC = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;
const LENGTH = ['minLength', 'maxLength'] as const;

/** Checks one parameter schema; answers the English problem or null. */
function parameterProblem(p: Parameter): string | null {
  const numeric = p.type === 'integer' || p.type === 'number';
  for (const k of NUMERIC)
    if (p[k] !== undefined && !numeric) return `${k} applies to numbers, not ${p.type}`;
  for (const k of LENGTH)
    if (p[k] !== undefined && p.type !== 'string') return `${k} applies to strings, not ${p.type}`;
  if (p.minimum !== undefined && p.maximum !== undefined && p.minimum > p.maximum)
    return `minimum ${p.minimum} is above maximum ${p.maximum}`;
  if (p.minLength !== undefined && p.maxLength !== undefined && p.minLength > p.maxLength)
    return `minLength ${p.minLength} is above maxLength ${p.maxLength}`;
  const own = { ...p, default: undefined, enum: undefined };
  const check = compiledSchema(JSON.stringify(own));
  for (const v of [...(p.enum ?? []), ...(p.default !== undefined ? [p.default] : [])])
    if (!check(v))
      return `the value ${JSON.stringify(v)} does not fit the parameter (${check.errors?.[0]?.message ?? 'invalid'})`;
  return null;
}

export const contractTemplateHooks: ResourceHooks = {
  beforeWrite({ values }) {
    if (typeof values.paramsSchema !== 'string') return;
    const schema = JSON.parse(values.paramsSchema) as {
      properties: Record<string, Parameter>;
      required?: string[];
    };
    for (const name of schema.required ?? [])
      if (!Object.hasOwn(schema.properties, name))
        throw invalidField(
          'paramsSchema.required',
          'reference',
          `"${name}" is not a parameter of paramsSchema.properties`,
          {
            id: name,
          },
        );
    for (const [name, p] of Object.entries(schema.properties)) {
      const problem = parameterProblem(p);
      if (problem) throw invalidField(`paramsSchema.properties.${name}`, 'schema', problem);
    }
    try {
      compiledSchema(values.paramsSchema);
    } catch (e) {
      throw invalidField('paramsSchema', 'schema', (e as Error).message);
    }
  },
};
