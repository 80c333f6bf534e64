/**
 * `x-schemaFrom`: the console's form check (src/schema-ui/schemaFrom.tsx `paramErrors`, @cfworker/json-schema)
 * and the server's (kernel/server/schemaFrom.ts `compiledSchema`, ajv) refuse the same parameters with the
 * same keyword and limit, over the shipped templates; and every shipped template is a valid
 * `contractTemplate` (its `paramsSchema` within the restricted draft-07 shape).
 */
import { describe, expect, it } from 'vitest';
import { formatErrors } from '../../kernel/dialect/schemaRegistry';
import { validatorFor } from '../../kernel/dialect/validators';
import { SHIPPED_TEMPLATES } from '../../server/db/migrations/20261123T0215_contract_templates_seed';
import { compiledSchema } from '../../kernel/server/schemaFrom';
import { cleanParams, paramErrors, type ParamsSchema } from '../../src/schema-ui/schemaFrom';

const supply = SHIPPED_TEMPLATES[0].paramsSchema as unknown as ParamsSchema;
const good = { supplier: '华北制药', drugName: '阿莫西林', quantity: 10, unitPrice: 2.5 };

const CASES: [string, Record<string, unknown>, string, string, Record<string, unknown>][] = [
  ['below minimum', { ...good, quantity: 0 }, 'quantity', 'minimum', { limit: 1 }],
  ['above maximum', { ...good, deliveryDays: 400 }, 'deliveryDays', 'maximum', { limit: 365 }],
  ['not above exclusiveMinimum', { ...good, unitPrice: 0 }, 'unitPrice', 'exclusiveMinimum', { limit: 0 }],
  ['wrong type', { ...good, quantity: 1.5 }, 'quantity', 'type', { type: 'integer' }],
  ['too long', { ...good, supplier: 'x'.repeat(61) }, 'supplier', 'maxLength', { limit: 60 }],
  ['missing', { ...good, supplier: undefined }, 'supplier', 'required', { missingProperty: 'supplier' }],
  ['unknown', { ...good, color: 'red' }, 'color', 'additionalProperties', { additionalProperty: 'color' }],
];

describe('form and server refuse the same parameters', () => {
  it.each(CASES)('%s', (_what, value, name, keyword, params) => {
    const form = paramErrors(supply, value);
    expect(Object.keys(form)).toEqual([name]);
    expect(form[name].message).toBe(`baas.validation.${keyword}`);
    expect(form[name].args).toMatchObject(params);
    const validate = compiledSchema(JSON.stringify(supply));
    expect(validate(cleanParams(value))).toBe(false);
    const server = formatErrors(validate.errors, 'params');
    expect(server[0]).toMatchObject({
      field: `params.${name}`,
      keyword,
      params: expect.objectContaining(params),
    });
  });

  it('accepts valid parameters; empty inputs count as absent', () => {
    expect(paramErrors(supply, good)).toEqual({});
    expect(paramErrors(supply, { ...good, deliveryDays: null, coldChain: '' })).toEqual({});
  });
});

describe('the shipped templates', () => {
  it.each(SHIPPED_TEMPLATES.map((t) => [t.name, t] as const))('%s is a valid contractTemplate', (_n, t) => {
    const validate = validatorFor('contractTemplate.create');
    const body = structuredClone(t) as Record<string, unknown>;
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  });
});

describe('the pigeonhole', () => {
  it('names exactly the resources whose schema says x-archive', async () => {
    const { archivableResources } = await import('../../kernel/hooks/archivedRecords');
    const { schemas } = await import('../../kernel/dialect/schemaRegistry');
    expect([...(schemas.archivedRecord.properties.resource.enum ?? [])].sort()).toEqual(
      archivableResources().sort(),
    );
  });
});
