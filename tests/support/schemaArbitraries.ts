/**
 * fast-check generators of resource schemas within the kernel's dialect (issue 18, "schema fuzzing"),
 * and of the records such a schema accepts or refuses. A generated schema is what a developer would
 * add to schemas/: `x-resource` (name, icon, menu group, product path under `/<group>/`, order),
 * `x-roles` (admin, or admin and user), `x-i18n` labels in English and Chinese, the seven CRUD calls
 * of `x-endpoints` under `/artmanager/<name>/`, `x-storage` (table, a create timestamp), and a random set
 * of fields over every type, format and keyword of the dialect (`FIELD_KINDS`): strings (plain text,
 * patterns, `date`, `date-time`, `email`, `uri`), bounded integers and numbers, string and integer enums
 * with `x-enumLabels`, booleans with a default, references to an existing resource (`x-references`,
 * `x-ui.reference`: authors), nullable fields, defaults, arrays of scalars and of objects, nested objects,
 * `x-unique`, `x-ordered` date pairs; each field with random `x-ui` (list, sortable, filter) and labels.
 * Names (resource, table, paths, fields) are random words plus a counter, so they never collide with
 * each other, with the repository's schemas, or with the list call's own parameters.
 *
 * The records such a schema accepts or refuses are derived from the schema itself (not from the
 * generator's choices) in tests/support/recordArbitraries.ts.
 */
import fc from 'fast-check';
import { KEYWORD_KINDS, keywordPart, type KeywordKind, type KeywordPart } from './schemaFuzzKeywords';

type Json = Record<string, any>;

/** Field names a generated schema never uses: the record's own fields and the list call's parameters. */
const RESERVED = new Set(['page', 'pageSize', 'q', 'sort', 'order', 'ids', 'id', 'createTime', 'updateTime']);

const WORDS = [
  'loan',
  'venue',
  'survey',
  'permit',
  'lease',
  'crate',
  'frame',
  'label',
  'tour',
  'grant',
  'claim',
  'audit',
  'batch',
  'shelf',
  'stamp',
  'route',
  'donor',
  'panel',
  'scope',
  'quota',
];
const ZH_WORDS = ['借展', '场地', '调查', '许可', '租约', '木箱', '画框', '标签', '巡展', '资助'];

/** Menu groups of the console's route tree (src/shell/routes.ts) a generated resource may join. */
export const GROUPS = ['industry', 'industry/artwork', 'permission', 'medicine', 'audit', 'data'] as const;
/** @mui/icons-material names (codegen imports any of them, src/generated/icons.ts). */
const ICONS = [
  'Campaign',
  'Category',
  'Image',
  'Gavel',
  'Museum',
  'Luggage',
  'Policy',
  'LocalOffer',
  'Inventory2',
];

/** The field kinds of the dialect the generator draws from (one property schema each). */
export const FIELD_KINDS = [
  'text',
  'code',
  'note',
  'date',
  'dateTime',
  'email',
  'uri',
  'integer',
  'number',
  'stringEnum',
  'integerEnum',
  'boolean',
  'reference',
  'nullableInteger',
  'defaultedText',
  'stringArray',
  'objectArray',
  'object',
  'steppedInteger',
  'exclusiveNumber',
  'integerArray',
  'plainBoolean',
  'nullableBoolean',
  'upload',
  // two `date` fields tied by `x-ordered` (the first on or before the second)
  'orderedDates',
] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

/** Every kind the generator draws from: the field kinds, then the keyword kinds (schemaFuzzKeywords.ts). */
export const ALL_KINDS: readonly (FieldKind | KeywordKind)[] = [...FIELD_KINDS, ...KEYWORD_KINDS];
const isKeywordKind = (k: string): k is KeywordKind => (KEYWORD_KINDS as readonly string[]).includes(k);

const cap = (s: string) => s[0].toUpperCase() + s.slice(1);
const labels = (en: string, zh: string) => ({ en, zh });

/** The property schema of one field of `kind` (labels and x-ui are added by the caller). */
function fieldArb(kind: FieldKind | KeywordKind): fc.Arbitrary<Json> {
  if (isKeywordKind(kind)) return fc.constant({});
  switch (kind) {
    case 'text':
      return fc
        .record({ min: fc.integer({ min: 1, max: 3 }), max: fc.integer({ min: 8, max: 60 }) })
        .map(({ min, max }) => ({ type: 'string', minLength: min, maxLength: max, 'x-plainText': true }));
    case 'code':
      return fc.boolean().map((unique) => ({
        type: 'string',
        pattern: '^[A-Z][A-Z0-9-]{2,11}$',
        ...(unique ? { 'x-unique': true } : {}),
      }));
    case 'note':
      return fc.integer({ min: 20, max: 2000 }).map((max) => ({
        type: ['string', 'null'],
        maxLength: max,
        'x-ui': { widget: 'textarea' },
      }));
    case 'date':
      return fc.constant({ type: 'string', format: 'date' });
    case 'dateTime':
      return fc.constant({ type: 'string', format: 'date-time' });
    case 'email':
      return fc.constant({ type: 'string', format: 'email', maxLength: 120 });
    case 'uri':
      return fc.constant({ type: 'string', format: 'uri', maxLength: 500 });
    case 'integer':
      return fc
        .record({ min: fc.integer({ min: -1000, max: 1000 }), span: fc.integer({ min: 1, max: 100_000 }) })
        .map(({ min, span }) => ({ type: 'integer', minimum: min, maximum: min + span }));
    case 'number':
      return fc
        .record({ min: fc.integer({ min: -1000, max: 1000 }), span: fc.integer({ min: 1, max: 1_000_000 }) })
        .map(({ min, span }) => ({ type: 'number', minimum: min, maximum: min + span }));
    case 'stringEnum':
      return fc
        .uniqueArray(fc.constantFrom('draft', 'open', 'closed', 'lent', 'back', 'lost'), {
          minLength: 2,
          maxLength: 4,
        })
        .map((values) => ({
          type: 'string',
          enum: values,
          'x-enumLabels': Object.fromEntries(
            values.map((v, i) => [v, labels(cap(v), `${ZH_WORDS[i % ZH_WORDS.length]}状态`)]),
          ),
        }));
    case 'integerEnum':
      return fc.uniqueArray(fc.integer({ min: 0, max: 9 }), { minLength: 2, maxLength: 4 }).map((values) => ({
        type: 'integer',
        enum: values,
        'x-enumLabels': Object.fromEntries(values.map((v) => [String(v), labels(`Level ${v}`, `等级${v}`)])),
      }));
    case 'boolean':
      return fc.boolean().map((d) => ({ type: 'boolean', default: d }));
    case 'reference':
      return fc.constant({
        type: 'integer',
        minimum: 1,
        maximum: 2147483647,
        'x-references': { resource: 'authors' },
        'x-ui': { reference: 'authors' },
      });
    case 'nullableInteger':
      return fc.constant({ type: ['integer', 'null'], minimum: 0, maximum: 1_000_000 });
    case 'defaultedText':
      return fc.constantFrom('none', 'tbd').map((d) => ({ type: 'string', maxLength: 40, default: d }));
    case 'stringArray':
      return fc.constant({
        type: 'array',
        items: { type: 'string', minLength: 1, maxLength: 20, 'x-plainText': true },
        maxItems: 5,
      });
    case 'objectArray':
      return fc.constant({
        type: 'array',
        maxItems: 4,
        items: {
          type: 'object',
          properties: {
            place: {
              type: 'string',
              minLength: 1,
              maxLength: 30,
              'x-plainText': true,
              'x-i18n': labels('Place', '地点'),
            },
            days: { type: 'integer', minimum: 1, maximum: 365, 'x-i18n': labels('Days', '天数') },
          },
          required: ['place'],
          additionalProperties: false,
        },
      });
    case 'steppedInteger':
      return fc
        .constantFrom(2, 5, 10)
        .map((step) => ({ type: 'integer', minimum: 0, maximum: 1000, multipleOf: step }));
    case 'exclusiveNumber':
      return fc.constant({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10000, multipleOf: 0.25 });
    case 'integerArray':
      return fc.constant({
        type: 'array',
        maxItems: 6,
        items: { type: 'integer', minimum: 0, maximum: 100 },
      });
    case 'plainBoolean':
      return fc.constant({ type: 'boolean' });
    case 'nullableBoolean':
      return fc.constant({ type: ['boolean', 'null'] });
    case 'upload':
      return fc.constant({
        type: ['string', 'null'],
        maxLength: 1000,
        'x-url': true,
        'x-upload': { types: ['image'], maxSize: 2097152 },
      });
    case 'orderedDates':
      return fc.constant({ type: 'string', format: 'date' });
    case 'object':
      return fc.constant({
        type: 'object',
        properties: {
          insurer: {
            type: 'string',
            minLength: 1,
            maxLength: 40,
            'x-plainText': true,
            'x-i18n': labels('Insurer', '保险公司'),
          },
          value: { type: 'number', minimum: 0, maximum: 1e9, 'x-i18n': labels('Insured value', '保额') },
        },
        required: ['insurer'],
        additionalProperties: false,
      });
  }
}

/** Kinds whose values have an order the list can sort by and an equality filter can match. */
const SCALAR: FieldKind[] = [
  'steppedInteger',
  'exclusiveNumber',
  'text',
  'code',
  'date',
  'dateTime',
  'email',
  'integer',
  'number',
  'stringEnum',
  'integerEnum',
];
const FILTERABLE: FieldKind[] = [
  'plainBoolean',
  'stringEnum',
  'integerEnum',
  'boolean',
  'reference',
  'integer',
  'code',
];

/**
 * One resource schema. `index` makes its names unique within a run; it has one field of each of the
 * `mandatory` kinds, then 0 to 4 more drawn from `kinds` (default every kind).
 */
export function resourceSchemaArb(
  index: number,
  mandatory: readonly (FieldKind | KeywordKind)[] = [],
  kinds: readonly (FieldKind | KeywordKind)[] = FIELD_KINDS,
  maxExtra = 4,
): fc.Arbitrary<Json> {
  const attrs = (kind: fc.Arbitrary<FieldKind | KeywordKind>) =>
    fc.record({
      kind,
      word: fc.constantFrom(...WORDS),
      zh: fc.constantFrom(...ZH_WORDS),
      required: fc.boolean(),
      list: fc.boolean(),
      sortable: fc.boolean(),
      filter: fc.boolean(),
    });
  const fields = fc
    .tuple(
      fc.tuple(...mandatory.map((k) => attrs(fc.constant(k)))),
      // 0 to maxExtra more fields of the field kinds (a keyword kind's fields come with the mandatory ones)
      fc.array(attrs(fc.constantFrom(...kinds.filter((k) => !isKeywordKind(k)))), { maxLength: maxExtra }),
    )
    .map(([a, b]) => [...a, ...b]);
  return fc
    .record({
      word: fc.constantFrom(...WORDS),
      word2: fc.constantFrom(...WORDS),
      zh: fc.constantFrom(...ZH_WORDS),
      group: fc.constantFrom(...GROUPS),
      icon: fc.constantFrom(...ICONS),
      user: fc.boolean(),
      order: fc.integer({ min: 20, max: 90 }),
      fields,
      titleQ: fc.boolean(),
    })
    .chain((r) =>
      fc.tuple(fc.constant(r), fc.tuple(...r.fields.map((f) => fieldArb(f.kind))) as fc.Arbitrary<Json[]>),
    )
    .map(([r, props]) => {
      const name = `fz${cap(r.word)}${cap(r.word2)}${index}`;
      const path = `/artmanager/${name}`;
      const properties: Json = {
        id: {
          type: 'integer',
          readOnly: true,
          'x-i18n': labels('ID', '编号'),
          'x-ui': { order: 0, list: true, sortable: true },
        },
        // The record's representation: a required plain text, free text searchable when titleQ.
        title: {
          type: 'string',
          minLength: 1,
          maxLength: 40,
          'x-plainText': true,
          'x-i18n': labels(`${cap(r.word)} title`, `${r.zh}标题`),
          'x-ui': { order: 1, list: true, sortable: true, ...(r.titleQ ? { filter: 'q' } : {}) },
        },
      };
      const required = ['title'];
      const ordered: [string, string][] = [];
      const sections: Json = {};
      const used = new Set<string>(['id', 'title', 'createTime']);
      const fresh = (base: string) => {
        let n = base;
        for (let k = 2; used.has(n) || RESERVED.has(n); k++) n = `${base}${k}`;
        used.add(n);
        return n;
      };
      const parts: KeywordPart[] = [];
      r.fields.forEach((f, i) => {
        if (isKeywordKind(f.kind)) {
          const part = keywordPart(f.kind, { name, path, fresh }, i + 2);
          for (const [k, p] of part.fields) properties[k] = p;
          required.push(...part.required);
          parts.push(part);
          return;
        }
        const p = props[i];
        const scalar = SCALAR.includes(f.kind as FieldKind);
        const ui = {
          ...(p['x-ui'] ?? {}),
          order: i + 2,
          ...(f.list && f.kind !== 'objectArray' && f.kind !== 'object' ? { list: true } : {}),
          ...(f.sortable && scalar ? { sortable: true } : {}),
          ...(f.filter && FILTERABLE.includes(f.kind as FieldKind) ? { filter: true } : {}),
        };
        const add = (fname: string, en: string, zh: string) => {
          // nested objects and lists of objects get a tab (an x-ui section labelled by x-sections)
          if (f.kind === 'object' || f.kind === 'objectArray') {
            sections[`${fname}Tab`] = {
              en: `${cap(f.word)} tab`,
              zh: `${f.zh}页`,
              order: Object.keys(sections).length + 1,
            };
            Object.assign(ui, { section: `${fname}Tab` });
          }
          properties[fname] = { ...structuredClone(p), 'x-i18n': labels(en, zh), 'x-ui': ui };
          if (f.required && p.default === undefined && !String(p.type).includes('null')) required.push(fname);
        };
        if (f.kind === 'orderedDates') {
          const from = fresh(`${f.word}From`);
          const until = fresh(`${f.word}Until`);
          add(from, `${cap(f.word)} from`, `${f.zh}开始`);
          add(until, `${cap(f.word)} until`, `${f.zh}结束`);
          ordered.push([from, until]);
        } else add(fresh(`${f.word}${cap(f.kind)}`), `${cap(f.word)} ${f.kind} ${i}`, `${f.zh}${i + 1}`);
      });
      const schema: Json = {
        $schema: './meta.schema.json',
        $id: name,
        // A human label, with spaces: codegen names the record's TypeScript type after it
        // (kernel/dialect/typeName.ts), so it must come out a valid, unique identifier.
        title: `${cap(r.word)} ${r.word2} ${index}`,
        description: 'Generated by tests/support/schemaArbitraries.ts (schema fuzzing, issue 18).',
        type: 'object',
        'x-roles': r.user ? ['admin', 'user'] : ['admin'],
        'x-resource': {
          name,
          recordRepresentation: 'title',
          icon: r.icon,
          group: r.group,
          path: `/${r.group}/${name}`,
          order: r.order,
        },
        'x-i18n': labels(
          `${cap(r.word)} ${r.word2} ${index} |||| ${cap(r.word)} ${r.word2}s ${index}`,
          `${r.zh}${index} |||| ${r.zh}${index}`,
        ),
        'x-endpoints': {
          getList: { method: 'GET', path: `${path}/getList` },
          getOne: { method: 'GET', path: `${path}/getInfo`, id: 'id' },
          getMany: { method: 'GET', path: `${path}/getList`, ids: 'ids' },
          create: { method: 'POST', path: `${path}/add` },
          update: { method: 'POST', path: `${path}/update` },
          delete: { method: 'POST', path: `${path}/delete`, id: 'id' },
          deleteMany: { method: 'POST', path: `${path}/delete`, ids: 'ids' },
        },
        'x-storage': { table: `fz_${r.word}_${r.word2}_${index}`, timestamps: { createTime: 'create' } },
        ...(ordered.length ? { 'x-ordered': ordered } : {}),
        ...(Object.keys(sections).length ? { 'x-sections': sections } : {}),
        properties: {
          ...properties,
          createTime: {
            type: 'string',
            readOnly: true,
            'x-i18n': labels('Created', '创建时间'),
            'x-ui': { order: 99, list: true, sortable: true, widget: 'datetime' },
          },
        },
        required,
        additionalProperties: false,
      };
      // Root keywords of the keyword kinds: objects merged one level deep, the rest set.
      for (const part of parts)
        for (const [k, v] of Object.entries(part.root))
          schema[k] = v && typeof v === 'object' && !Array.isArray(v) ? { ...(schema[k] ?? {}), ...v } : v;
      if (parts.length) {
        // `x-storage` after its columns: the timestamps of the base schema stay.
        const st = schema['x-storage'];
        st.timestamps = { createTime: 'create', ...(st.timestamps ?? {}) };
      }
      return schema;
    });
}

/**
 * The sample CI's schema fuzz draws (tests/browser/schema-fuzz.test.ts without FUZZ_SCHEMAS/FUZZ_SEED):
 * between them its schemas hold every keyword of the dialect (tests/unit/schema-fuzz-coverage.test.ts).
 * At most one random field beyond the mandatory ones (which already cover every kind): the CI run's
 * pages stay small enough for its time budget; FUZZ_SCHEMAS/FUZZ_SEED runs draw up to four.
 */
export const CI_SAMPLE = { count: 4, seed: 18, maxExtra: 1 } as const;

/**
 * `count` schemas from `seed`, names unique within the run (see `resourceSchemaArb`). Every kind of
 * `kinds` is in at least one of them (schema i has the kinds k with k mod count = i), so a handful of
 * schemas covers the whole dialect.
 */
export function sampleSchemas(
  count: number,
  seed: number,
  kinds: readonly (FieldKind | KeywordKind)[] = ALL_KINDS,
  maxExtra = 4,
): Json[] {
  return Array.from(
    { length: count },
    (_, i) =>
      fc.sample(
        resourceSchemaArb(
          i + 1,
          kinds.filter((_, k) => k % count === i),
          kinds,
          maxExtra,
        ),
        {
          numRuns: 1,
          seed: seed + i,
        },
      )[0],
  );
}
