/**
 * Where a schema says `x-schemaFrom` (kernel/dialect/keywords.ts), at any depth (issue 33): a top-level
 * property, a property of an object property, an array's items, a map's values (`additionalProperties`),
 * or a definition a property's `$ref` names (inlined where it is used). The record that holds the schema
 * to follow is always named by a top-level `x-references` property of the record (`reference`): a nested
 * value is checked against the schema of the record the record itself points at. Pure and browser-safe:
 * the server's check (kernel/server/schemaFrom.ts) and the console's form validator
 * (src/schema-ui/validate.ts) walk the same specs over the same values.
 */
import type { PropertySchema, ResourceSchema } from './schemaRegistry';

/**
 * One step from a value to the one inside it: a property name, `[]` every item of an array, `{}` every
 * value of a map.
 */
export type SchemaFromStep = string | '[]' | '{}';

/** One place of `x-schemaFrom`. */
export interface SchemaFromSpec {
  /** The top-level property holding the place, e.g. `params` or `steps`. */
  property: string;
  /** The steps from that property's value to the checked values: `[]` for the property itself. */
  path: SchemaFromStep[];
  /** The top-level `x-references` property naming the record that holds the schema, e.g. `templateId`. */
  reference: string;
  /** The field of that record holding the JSON Schema, e.g. `paramsSchema`. */
  field: string;
}

type Node = PropertySchema & { [k: string]: unknown };
const isNode = (v: unknown): v is Node => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Every place of `x-schemaFrom` in `schema` (its `$ref`s inlined: the registry's and codegen's are).
 * @throws Error `<$id>.<place>: x-schemaFrom needs { reference: <x-references property>, field }` when
 *   `reference` is no top-level `x-references` property (codegen's dialect rules refuse it first)
 */
export function schemaFromSpecs(schema: ResourceSchema): SchemaFromSpec[] {
  const out: SchemaFromSpec[] = [];
  const walk = (p: unknown, property: string, path: SchemaFromStep[]): void => {
    if (!isNode(p)) return;
    const spec = p['x-schemaFrom'] as { reference?: string; field?: string } | undefined;
    if (spec) {
      if (!spec.reference || !spec.field || !schema.properties[spec.reference]?.['x-references'])
        throw new Error(
          `${schema.$id}.${[property, ...path].join('.')}: x-schemaFrom needs { reference: <x-references property>, field }`,
        );
      out.push({ property, path, reference: spec.reference, field: spec.field });
    }
    for (const [k, sub] of Object.entries(p.properties ?? {})) walk(sub, property, [...path, k]);
    walk(p.items, property, [...path, '[]']);
    walk(p.additionalProperties, property, [...path, '{}']);
  };
  for (const [name, p] of Object.entries(schema.properties)) walk(p, name, []);
  return out;
}

/**
 * The values a spec's `path` reaches in `value` (the top-level property's value), each with its dotted
 * field path from the record (`steps.0.params`) and a setter that replaces it (defaults filled in).
 * Values that are absent or null are not reached (nothing to check).
 */
export function schemaFromTargets(
  value: unknown,
  property: string,
  path: SchemaFromStep[],
): { field: string; value: unknown; set: (v: unknown) => void }[] {
  const out: { field: string; value: unknown; set: (v: unknown) => void }[] = [];
  const walk = (v: unknown, field: string, rest: SchemaFromStep[], set: (x: unknown) => void) => {
    if (v === undefined || v === null) return;
    if (!rest.length) return void out.push({ field, value: v, set });
    const [step, ...more] = rest;
    if (step === '[]') {
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${field}.${i}`, more, (y) => (v[i] = y)));
    } else if (isNode(v)) {
      const o = v as Record<string, unknown>;
      const keys = step === '{}' ? Object.keys(o) : [step];
      for (const k of keys) walk(o[k], `${field}.${k}`, more, (y) => (o[k] = y));
    }
  };
  walk(value, property, path, () => undefined);
  return out;
}
