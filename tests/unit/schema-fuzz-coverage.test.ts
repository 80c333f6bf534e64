/**
 * The schema fuzzer's keyword coverage (issue 33 item 2): every keyword and value shape that
 * schemas/meta.schema.json admits, in every place it admits it, is in the schemas CI's fuzz run draws
 * (tests/browser/schema-fuzz.test.ts: `sampleSchemas(CI_SAMPLE.count, CI_SAMPLE.seed, …, CI_SAMPLE.maxExtra)`), and those
 * schemas are in the dialect. Marks (what a keyword at a place is): tests/support/schemaFuzzCoverage.ts.
 * A keyword added to the meta-schema fails the first test, naming it, until the generator
 * (tests/support/schemaArbitraries.ts, schemaFuzzKeywords.ts) produces it, or `NOT_GENERATED` says why
 * the dialect or the kernel rules it out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dialectErrors, formatDialectError } from '../../scripts/codegen/dialect';
import { CI_SAMPLE, sampleSchemas } from '../support/schemaArbitraries';
import { metaMarks, schemaMarks } from '../support/schemaFuzzCoverage';

type Json = Record<string, any>;

const META: Json = JSON.parse(readFileSync('schemas/meta.schema.json', 'utf8'));

const BELOW_TOP = ['definitions/*', '…/properties/*', '…/items', '…/additionalProperties'];
const COLUMN =
  "the dialect rules refuse it on a record's own field, stored in a column of one type (scripts/codegen/dialectRules.ts); a JSON value sits in an object, a list or a map";
const TOP_ONLY = 'the dialect rules take it on top-level properties only (scripts/codegen/dialectRules.ts)';
const EVOLUTION =
  'an evolution keyword (README "Changing a schema"): drawn as an evolution of a generated schema by tests/api/evolution-fuzz.test.ts';

/**
 * Marks the meta-schema admits that the generator never produces, and why. Each is either refused by the
 * dialect rules (the meta-schema cannot say it) or a kernel limit reported on issue 33.
 */
export const NOT_GENERATED: Record<string, string> = {
  // How a schema changed since its previous version (scripts/codegen/storage): meaningless in a schema
  // drawn fresh; tests/api/evolution-fuzz.test.ts draws them as random evolutions of generated schemas.
  ...Object.fromEntries(
    [
      'properties/*|x-renamedFrom',
      'properties/*|x-fill',
      '<property>|x-fill : boolean',
      '<property>|x-fill : null',
      '<property>|x-fill : number',
      '<property>|x-fill : string',
      '(root)|x-onBreak',
      '(root)|x-onBreak/*',
      '(root)|x-removed',
      '(root)|x-storage/renamedFrom',
    ].map((m) => [m, EVOLUTION]),
  ),
  'properties/*|type : several': COLUMN,
  'properties/*|type (none)': COLUMN,
  ...Object.fromEntries(
    BELOW_TOP.flatMap((place) =>
      ['x-unique', 'x-references', 'x-count', 'x-renamedFrom', 'x-fill'].map((k) => [
        `${place}|${k}`,
        TOP_ONLY,
      ]),
    ),
  ),
};

const repository = readdirSync('schemas')
  .filter((f) => f.endsWith('.schema.json') && f !== 'meta.schema.json')
  .map((f) => ({ file: `schemas/${f}`, schema: JSON.parse(readFileSync(`schemas/${f}`, 'utf8')) as Json }));

const ci = sampleSchemas(CI_SAMPLE.count, CI_SAMPLE.seed, undefined, CI_SAMPLE.maxExtra);

describe('the schema fuzzer generates every keyword of the dialect', () => {
  const admitted = metaMarks(META);

  it("the CI fuzz run's schemas hold every keyword and value shape of meta.schema.json, at every place", () => {
    const held = schemaMarks(META, ci);
    const missing = [...admitted].filter((m) => !held.has(m) && !(m in NOT_GENERATED)).sort();
    expect(missing, `not generated (place|keyword shape):\n${missing.join('\n')}`).toEqual([]);
  });

  it('any seed covers them too: the keyword kinds are mandatory, spread over the sampled schemas', () => {
    const held = schemaMarks(META, sampleSchemas(CI_SAMPLE.count, 7));
    expect([...admitted].filter((m) => !held.has(m) && !(m in NOT_GENERATED)).sort()).toEqual([]);
  });

  it('NOT_GENERATED lists only marks the meta-schema admits and the generator does not produce', () => {
    const held = schemaMarks(META, [...ci, ...sampleSchemas(8, 3)]);
    for (const m of Object.keys(NOT_GENERATED)) {
      expect(admitted, m).toContain(m);
      expect(held, m).not.toContain(m);
    }
  });

  it('the generated schemas hold nothing the meta-schema does not admit', () => {
    const held = schemaMarks(META, ci);
    expect([...held].filter((m) => !admitted.has(m))).toEqual([]);
  });

  it('a keyword added to the meta-schema fails the coverage until the generator produces it', () => {
    const meta = structuredClone(META);
    meta.definitions.property.properties['x-newKeyword'] = { type: 'boolean' };
    meta.definitions.storage.properties.partitions = { enum: ['year', 'month'] };
    const held = schemaMarks(meta, ci);
    const missing = [...metaMarks(meta)].filter((m) => !held.has(m) && !(m in NOT_GENERATED));
    expect(missing.sort()).toEqual(
      [
        ...['properties/*', ...BELOW_TOP].map((p) => `${p}|x-newKeyword`),
        '<property>|x-newKeyword = true',
        '<property>|x-newKeyword = false',
        '(root)|x-storage/partitions',
        '(root)|x-storage/partitions = "year"',
        '(root)|x-storage/partitions = "month"',
      ].sort(),
    );
  });

  it("tells a list's item types apart: a generator without lists of booleans or JSON values fails", () => {
    /** `s` with every list's own items of type boolean, of several types or of none made strings. */
    const strip = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(strip);
      if (!node || typeof node !== 'object') return node;
      const out: Json = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, strip(v)]));
      const items = out.items as Json | undefined;
      const types = ([] as unknown[]).concat(items?.type ?? []).filter((t) => t !== 'null');
      if (items && !items.$ref && (items.type === undefined || types.length > 1 || types[0] === 'boolean'))
        out.items = { type: 'string' };
      return out;
    };
    const held = schemaMarks(META, ci.map(strip) as Json[]);
    expect([...admitted].filter((m) => !held.has(m) && !(m in NOT_GENERATED)).sort()).toEqual([
      '…/items|type (none)',
      '…/items|type : several',
      '…/items|type = "boolean"',
    ]);
  });

  it("the CI fuzz run's schemas are in the dialect, beside the repository's", () => {
    const files = ci.map((schema) => ({ file: `schemas/${schema.$id}.schema.json`, schema }));
    expect(dialectErrors([...repository, ...files]).map(formatDialectError)).toEqual([]);
  });
});
