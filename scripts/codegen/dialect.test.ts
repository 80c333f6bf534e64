/**
 * Codegen's refusals (issue 18 item 1): schemas outside the dialect are refused with the file, the JSON
 * pointer and the reason, every error listed, and nothing makes the check or codegen throw. The base is
 * the new resource (tests/fixtures/loan.schema.json: a reference with a picker, a unique code with
 * a pattern, an ordered date pair, a bounded number, a labelled enum, a boolean with a default, a section
 * tab, the Museum icon) beside the repository's own schemas, which are all in the dialect.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dialectErrors, formatDialectError, iconExists, probeSchema } from './dialect';
import { META_SCHEMA_FILE } from './metaSchema';

type Json = Record<string, any>;

const LOAN: Json = JSON.parse(readFileSync('tests/fixtures/loan.schema.json', 'utf8'));
const FILE = 'schemas/loan.schema.json';

/** The calls of a schema, `METHOD path`. */
const callsOf = (s: Json): string[] =>
  Object.values<Json>(s['x-endpoints'] ?? {}).flatMap((e) =>
    typeof e?.path === 'string'
      ? [`${e.method} ${e.path}`]
      : Object.values<Json>(e ?? {}).map((r) => `${r.method} ${r.path}`),
  );

/**
 * Whether the repository's schema file `f` is one the fixture stands for: a developer's own section of the
 * fixture's name (file, title, resource name, list path, table or a call shared with the loan) would clash
 * with the fixture, not with a rule; the fixture takes its place (the tests read schemas/ and never write
 * there, as tests/fixtures/loan.schema.json stays where it is).
 */
function standsFor(f: string, s: Json): boolean {
  const loanCalls = new Set(callsOf(LOAN));
  return (
    `schemas/${f}` === FILE ||
    s.title === LOAN.title ||
    (s['x-resource'] !== undefined &&
      (s['x-resource'].name === LOAN['x-resource'].name ||
        s['x-resource'].path === LOAN['x-resource'].path)) ||
    (s['x-storage'] !== undefined && s['x-storage'].table === LOAN['x-storage'].table) ||
    callsOf(s).some((c) => loanCalls.has(c))
  );
}

/** The repository's schemas, but those the fixture stands for ({@link standsFor}). */
const SCHEMAS = readdirSync('schemas')
  .filter((f) => f.endsWith('.schema.json') && f !== META_SCHEMA_FILE)
  .sort()
  .map((f) => ({ f, schema: JSON.parse(readFileSync(`schemas/${f}`, 'utf8')) as Json }))
  .filter(({ f, schema }) => !standsFor(f, schema))
  .map(({ f, schema }) => ({ file: `schemas/${f}`, schema }));

/** The errors of the repository's schemas plus the loan schema as `change` leaves it. */
function errorsWith(change: (s: Json) => void): string[] {
  const loan = structuredClone(LOAN);
  change(loan);
  return dialectErrors([...SCHEMAS, { file: FILE, schema: loan }]).map(formatDialectError);
}

describe('the dialect', () => {
  it("admits the repository's schemas and the issue's new resource", () => {
    expect(errorsWith(() => {})).toEqual([]);
  });

  it("admits $ref'd items of a list and a $ref'd property (definitions), as the meta-schema does", () => {
    expect(
      errorsWith((s) => {
        s.definitions = {
          venue: { type: 'string', minLength: 1, 'x-plainText': true },
          stop: {
            type: 'object',
            properties: { venue: { $ref: '#/definitions/venue', 'x-i18n': { en: 'Venue', zh: '场馆' } } },
            required: ['venue'],
          },
        };
        s.properties.stops = {
          type: 'array',
          items: { $ref: '#/definitions/stop' },
          'x-i18n': { en: 'Stops', zh: '巡展站' },
        };
      }),
    ).toEqual([]);
  });

  it('admits lists of booleans and JSON values (items of several types or of none), at every depth', () => {
    const label = { en: 'Checks', zh: '检查' };
    expect(
      errorsWith((s) => {
        s.definitions = { scalar: { type: ['string', 'number', 'boolean'] } };
        s.properties.checks = { type: 'array', items: { type: 'boolean' }, 'x-i18n': label };
        s.properties.values = { type: 'array', items: { $ref: '#/definitions/scalar' }, 'x-i18n': label };
        s.properties.anything = { type: 'array', items: {}, 'x-i18n': label };
        s.properties.venue.properties.extra = { type: ['string', 'integer', 'null'], 'x-i18n': label };
        s.properties.venue.properties.free = { 'x-i18n': label };
      }),
    ).toEqual([]);
  });

  it('refuses GET for every write verb, and admits it for every read verb', () => {
    const writes = ['create', 'update', 'updateMany', 'delete', 'deleteMany'];
    for (const verb of writes)
      expect(
        errorsWith((s) => {
          const e = (s['x-endpoints'][verb] ??= { path: `/artmanager/loan/${verb}Call` });
          // delete and deleteMany share a call: a GET delete alone keeps deleteMany's POST
          e.method = 'GET';
          if (verb.startsWith('delete')) e.path = `/artmanager/loan/${verb}Call`;
        }),
        verb,
      ).toEqual([
        `${FILE}#/x-endpoints/${verb}/method: ${verb} changes records: its call is POST, with its data in a JSON body (a GET must not change anything: RFC 9110 §9.2.1, links, prefetches and crawlers call it freely)`,
      ]);
    expect(
      errorsWith((s) => {
        s['x-endpoints'].search = { method: 'GET', path: '/artmanager/loan/search' };
        s['x-endpoints'].getOne.aliases = [{ method: 'GET', path: '/artmanager/loan/info' }];
      }),
    ).toEqual([]);
  });

  it('finds icons in @mui/icons-material, any of them, and nothing else', () => {
    expect(['Museum', 'Image', 'Science', 'AccessAlarm'].map(iconExists)).toEqual([true, true, true, true]);
    expect(['Musem', 'index', 'museum', '../package', 'Image.js'].map(iconExists)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

/** One schema outside the dialect: what changes, and the one line codegen prints for it. */
const CASES: [string, (s: Json) => void, string][] = [
  [
    'the draft-07 $schema instead of the dialect',
    (s) => (s.$schema = 'http://json-schema.org/draft-07/schema#'),
    `${FILE}#/$schema: must be "./meta.schema.json"`,
  ],
  [
    'an $id other than the file name',
    (s) => (s.$id = 'lending'),
    `${FILE}#/$id: must be "loan", the file's name`,
  ],
  [
    'an unknown root keyword',
    (s) => (s['x-colour'] = 'red'),
    `${FILE}#/x-colour: unknown keyword "x-colour" (known: $schema, $id, $comment, title`,
  ],
  [
    'a misspelt keyword in a property',
    (s) => (s.properties.code.maxlength = 20),
    `${FILE}#/properties/code/maxlength: unknown keyword "maxlength" (known: $ref, $comment, title`,
  ],
  [
    'an unknown key in x-ui',
    (s) => (s.properties.fee['x-ui'].hint = 'CNY'),
    `${FILE}#/properties/fee/x-ui/hint: unknown key "hint" (known: order, list, sortable, filter, widget, section, reference, readOnly)`,
  ],
  [
    'a type the kernel has not',
    (s) => (s.properties.fee.type = 'float'),
    `${FILE}#/properties/fee/type: must be one of: "string", "integer", "number", "boolean", "array", "object", "null"`,
  ],
  [
    'a format the kernel has not',
    (s) => (s.properties.startDate.format = 'time'),
    `${FILE}#/properties/startDate/format: must be one of: "date", "date-time", "email", "uri"`,
  ],
  [
    'a widget the console has not',
    (s) => (s.properties.fee['x-ui'].widget = 'slider'),
    `${FILE}#/properties/fee/x-ui/widget: must be one of: "textarea", "image"`,
  ],
  ['a label without Chinese', (s) => delete s['x-i18n'].zh, `${FILE}#/x-i18n/zh: is required`],
  [
    'a field without a label',
    (s) => delete s.properties.fee['x-i18n'],
    `${FILE}#/properties/fee/x-i18n: the property "fee" has no label: add "x-i18n": { "en": ..., "zh": ... }`,
  ],
  [
    'an endpoint method other than GET and POST',
    (s) => (s['x-endpoints'].delete.method = 'DELETE'),
    `${FILE}#/x-endpoints/delete/method: must be one of: "GET", "POST"`,
  ],
  [
    'a create call by GET (a write verb: it changes records)',
    (s) => (s['x-endpoints'].create.method = 'GET'),
    `${FILE}#/x-endpoints/create/method: create changes records: its call is POST, with its data in a JSON body (a GET must not change anything: RFC 9110 §9.2.1`,
  ],
  [
    "an update's alias by GET",
    (s) => (s['x-endpoints'].update.aliases = [{ method: 'GET', path: '/artmanager/loan/retitle' }]),
    `${FILE}#/x-endpoints/update/aliases/0/method: update changes records: its call is POST`,
  ],
  [
    'a field of several types (its column has one)',
    (s) => (s.properties.fee.type = ['number', 'string']),
    `${FILE}#/properties/fee/type: a record's own field is stored in a column of one type, and "fee" is ["number","string"]: give it one type (with "null" if it may be empty), or keep a value of several types or of none in an object or a list, where it is stored as JSON`,
  ],
  [
    'a field of no type',
    (s) => delete s.properties.fee.type,
    `${FILE}#/properties/fee: a record's own field is stored in a column of one type, and "fee" is of no type`,
  ],
  [
    'a reference to a resource that does not exist',
    (s) => (s.properties.artwork['x-references'].resource = 'paintings'),
    `${FILE}#/properties/artwork/x-references/resource: x-references.resource "paintings" is no resource (known: accounts,`,
  ],
  [
    'a reference to a resource without a table',
    (s) => (s.properties.artwork['x-references'].resource = 'channels'),
    `${FILE}#/properties/artwork/x-references/resource: x-references.resource "channels" has no x-storage.table (schemas/channel.schema.json): nothing to reference`,
  ],
  [
    'a reference held by a string',
    (s) => (s.properties.artwork.type = 'string'),
    `${FILE}#/properties/artwork/x-references: x-references holds a record id: type "integer" (or ["integer", "null"]), not "string"`,
  ],
  [
    'a picker of an unknown resource',
    (s) => (s.properties.artwork['x-ui'].reference = 'paintings'),
    `${FILE}#/properties/artwork/x-ui/reference: "paintings" is no resource (known: accounts,`,
  ],
  [
    'a count of a field the counted resource has not',
    (s) =>
      (s.properties.copies = {
        type: 'integer',
        readOnly: true,
        'x-i18n': { en: 'Copies', zh: '副本' },
        'x-count': { resource: 'artworks', field: 'loan' },
      }),
    `${FILE}#/properties/copies/x-count/field: x-count.field "loan" is not a property of artwork`,
  ],
  [
    'x-ordered naming a field that does not exist',
    (s) => (s['x-ordered'] = [['startDate', 'finishDate']]),
    `${FILE}#/x-ordered/0: "finishDate" is not a property of this schema`,
  ],
  [
    'x-ordered pairing a date and a number',
    (s) => (s['x-ordered'] = [['startDate', 'fee']]),
    `${FILE}#/x-ordered/0: x-ordered pairs two properties of the same comparable type (integer, number, or string with format date or date-time): "startDate" is "string" date, "fee" is "number"`,
  ],
  [
    'x-ordered pairing plain strings (never compared)',
    (s) => (s['x-ordered'] = [['code', 'insurer']]),
    `${FILE}#/x-ordered/0: x-ordered pairs two properties of the same comparable type`,
  ],
  [
    'x-ordered in a nested object naming a field of the record',
    (s) => (s.properties.venue['x-ordered'] = [['startDate', 'endDate']]),
    `${FILE}#/properties/venue/x-ordered/0: "startDate" and "endDate" are not a property of this object`,
  ],
  [
    'x-distinct on numbers',
    (s) => (s['x-distinct'] = [['fee', 'artwork']]),
    `${FILE}#/x-distinct/0: x-distinct compares strings: "fee" is "number", "artwork" is "integer"`,
  ],
  [
    'a filter on a nested field',
    (s) => (s.properties.venue.properties.city['x-ui'] = { filter: true }),
    `${FILE}#/properties/venue/properties/city/x-ui: x-ui.filter works on the record's own (top-level) properties only`,
  ],
  [
    'sorting by an object',
    (s) => (s.properties.venue['x-ui'].sortable = true),
    `${FILE}#/properties/venue/x-ui/sortable: x-ui.sortable needs a stored scalar column; "venue" is "object"`,
  ],
  [
    'an icon @mui/icons-material does not have',
    (s) => (s['x-resource'].icon = 'Musem'),
    `${FILE}#/x-resource/icon: "Musem" is not an @mui/icons-material icon`,
  ],
  [
    'an icon name that is no icon name',
    (s) => (s['x-resource'].icon = 'museum'),
    `${FILE}#/x-resource/icon: must match the pattern ^[A-Z][A-Za-z0-9]*$`,
  ],
  [
    "another schema's resource name",
    (s) => (s['x-resource'].name = 'artworks'),
    `${FILE}#/x-resource/name: resource name "artworks" is already used by schemas/artwork.schema.json#/x-resource/name`,
  ],
  [
    "a title naming another schema's record type (titles are labels: spaces are fine, the type name is derived)",
    (s) => (s.title = 'art category'),
    `${FILE}#/title: type name (from the title) "ArtCategory" is already used by schemas/artCategory.schema.json#/title`,
  ],
  [
    "another schema's table",
    (s) => (s['x-storage'].table = 'artworks'),
    `${FILE}#/x-storage/table: table "artworks" is already used by schemas/artwork.schema.json#/x-storage/table`,
  ],
  [
    "another schema's list path",
    (s) => (s['x-resource'].path = '/industry/artWork'),
    `${FILE}#/x-resource/path: path "/industry/artWork" is already used by schemas/artwork.schema.json#/x-resource/path`,
  ],
  [
    "another resource's call",
    (s) => (s['x-endpoints'].create.path = '/artmanager/artwork/addArtwork'),
    `${FILE}#/x-endpoints/create/path: the call POST /artmanager/artwork/addArtwork is already create of schemas/artwork.schema.json#/x-endpoints/create/path`,
  ],
  [
    'two verbs of one resource on one call',
    (s) => (s['x-endpoints'].update.path = '/artmanager/loan/add'),
    `${FILE}#/x-endpoints/update/path: the call POST /artmanager/loan/add is already create of ${FILE}#/x-endpoints/create/path`,
  ],
  [
    'a boolean whose default is text',
    (s) => (s.properties.insured.default = 'no'),
    `${FILE}#/properties/insured/default: "no" is not of the property's type "boolean"`,
  ],
  [
    'a default outside the enum',
    (s) => (s.properties.status.default = 'lost'),
    `${FILE}#/properties/status/default: "lost" is not one of the enum values`,
  ],
  [
    'an enum without labels',
    (s) => delete s.properties.status['x-enumLabels'],
    `${FILE}#/properties/status/x-enumLabels: an enum needs a label per value`,
  ],
  [
    'a label of a value the enum has not',
    (s) => (s.properties.status['x-enumLabels'].lost = { en: 'Lost', zh: '丢失' }),
    `${FILE}#/properties/status/x-enumLabels/lost: "lost" is not one of the enum values (planned, lent, returned)`,
  ],
  [
    'a section tab without a label',
    (s) => delete s['x-sections'],
    `${FILE}#/properties/insured/x-ui/section: the section "insurance" has no label: add "x-sections": { "insurance": { "en": ..., "zh": ... } }`,
  ],
  [
    'a label of a section no field is in',
    (s) => (s['x-sections'].shipping = { en: 'Shipping', zh: '运输' }),
    `${FILE}#/x-sections/shipping: no property is in the section "shipping" (x-ui.section)`,
  ],
  [
    'a required field that does not exist',
    (s) => s.required.push('borrower'),
    `${FILE}#/required/4: "borrower" is not a property of this schema`,
  ],
  [
    'a $ref to a missing definition',
    (s) => (s.properties.fee = { $ref: '#/definitions/money', 'x-i18n': { en: 'Fee', zh: '费用' } }),
    `${FILE}#/properties/fee/$ref: "#/definitions/money" names no definition of this schema`,
  ],
  [
    'a string keyword on a number',
    (s) => (s.properties.fee['x-maxWidth'] = 10),
    `${FILE}#/properties/fee/x-maxWidth: x-maxWidth applies to strings; this property is "number"`,
  ],
  [
    'an upload held by a number',
    (s) => (s.properties.fee['x-upload'] = { types: ['image'], maxSize: 1000 }),
    `${FILE}#/properties/fee/x-upload: x-upload holds a file's URL: a string or an array of strings, not "number"`,
  ],
  [
    'an index of an unknown column',
    (s) => s['x-storage'].indexes.push('borrower'),
    `${FILE}#/x-storage/indexes/1: "borrower" is no property or column`,
  ],
  [
    'a table name SQL would quote',
    (s) => (s['x-storage'].table = 'Loans Table'),
    `${FILE}#/x-storage/table: must match the pattern ^[a-z][a-z0-9_]*$`,
  ],
  [
    'a pattern that is no regular expression',
    (s) => (s.properties.code.pattern = '^L-[0-9{4}$'),
    `${FILE}#/properties/code/pattern: must be a valid regex`,
  ],
  [
    'a role no account can hold, in x-roles',
    (s) => (s['x-roles'] = ['admin', 'curator']),
    `${FILE}#/x-roles/1: "curator" is no role an account can hold (admin, user, company: schemas/account.schema.json#/properties/roles/items/enum)`,
  ],
  [
    'a role no account can hold, in x-resource.roles',
    (s) => (s['x-resource'].roles = ['registrar']),
    `${FILE}#/x-resource/roles/0: "registrar" is no role an account can hold (admin, user, company: schemas/account.schema.json#/properties/roles/items/enum)`,
  ],
  [
    "a role no account can hold, in a call's roles",
    (s) => (s['x-endpoints'].delete.roles = ['admin', 'curator']),
    `${FILE}#/x-endpoints/delete/roles/1: "curator" is no role an account can hold (admin, user, company: schemas/account.schema.json#/properties/roles/items/enum)`,
  ],
  [
    'a $ref that refers to itself through its own properties',
    (s) => {
      s.definitions = { node: { type: 'object', properties: { child: { $ref: '#/definitions/node' } } } };
      s.properties.tree = { $ref: '#/definitions/node', 'x-i18n': { en: 'Tree', zh: '树' } };
    },
    `${FILE}#/properties/tree/properties/child/$ref: $ref "#/definitions/node" refers to itself (#/definitions/node -> #/definitions/node); a record's shape must be finite`,
  ],
];

describe(
  'codegen refuses schemas outside the dialect: file, JSON pointer, reason',
  { timeout: 60_000 },
  () => {
    it.each(CASES)('%s', (_what, change, line) => {
      const errors = errorsWith(change);
      expect(errors).toHaveLength(1);
      expect(errors[0].startsWith(line), `${errors[0]}\n  should start with\n${line}`).toBe(true);
    });

    it('lists every error at once, in every file', () => {
      const other = structuredClone(SCHEMAS.find((s) => s.file === 'schemas/author.schema.json')!);
      other.schema['x-resource'].icon = 'NoSuchIcon';
      const loan = structuredClone(LOAN);
      loan.properties.fee.type = 'float';
      loan['x-colour'] = 'red';
      loan['x-ordered'] = [['startDate', 'finishDate']];
      const errors = dialectErrors([
        ...SCHEMAS.filter((s) => s.file !== other.file),
        other,
        { file: FILE, schema: loan },
      ]).map(formatDialectError);
      expect(errors.map((e) => e.split(':')[0])).toEqual([
        `${FILE}#/x-colour`,
        `${FILE}#/properties/fee/type`,
        // The meta-schema errors of a file hold back its other rules (they rely on its shapes).
        'schemas/author.schema.json#/x-resource/icon',
      ]);
    });

    it('never throws, whatever JSON a schema file holds (fast-check)', () => {
      fc.assert(
        fc.property(fc.jsonValue(), (value) => {
          const errors = dialectErrors([{ file: FILE, schema: value as Json }]);
          expect(errors.length).toBeGreaterThan(0);
          for (const e of errors) {
            expect(e.file).toBe(FILE);
            expect(e.pointer === '' || e.pointer.startsWith('/')).toBe(true);
            expect(e.reason).not.toBe('');
          }
        }),
        { numRuns: 300 },
      );
    });

    it('never trips its own rules, whatever value replaces a part of a valid schema (fast-check)', () => {
      const paths: string[][] = [];
      const walk = (node: unknown, path: string[]) => {
        paths.push(path);
        if (node && typeof node === 'object')
          for (const [k, v] of Object.entries(node)) walk(v, [...path, k]);
      };
      walk(LOAN, []);
      const others = SCHEMAS.filter((s) => s.file === 'schemas/artwork.schema.json');
      fc.assert(
        fc.property(fc.constantFrom(...paths.slice(1)), fc.jsonValue(), (path, value) => {
          const loan = structuredClone(LOAN);
          let node: any = loan;
          for (const k of path.slice(0, -1)) node = node[k];
          node[path[path.length - 1]] = value;
          const errors = dialectErrors([...others, { file: FILE, schema: loan }]);
          // (artwork's own references name resources left out here: only the rules' health is asserted)
          for (const e of errors)
            expect(e.reason).not.toMatch(/a bug of scripts|cannot be checked|the dialect rules failed/);
        }),
        { numRuns: 300 },
      );
    });

    it('names an unknown keyword wherever it is put (fast-check)', () => {
      const fields = Object.keys(LOAN.properties);
      fc.assert(
        fc.property(fc.constantFrom(...fields), fc.stringMatching(/^[a-z][A-Za-z]{0,8}$/), (field, word) => {
          const keyword = `x-${word}`;
          const errors = errorsWith((s) => (s.properties[field][keyword] = true));
          expect(errors).toHaveLength(1);
          expect(errors[0]).toMatch(
            new RegExp(
              `^schemas/loan\\.schema\\.json#/properties/${field}/${keyword}: unknown keyword "${keyword}"`,
            ),
          );
        }),
        { numRuns: 50 },
      );
    });
  },
);

describe('a schema that makes a codegen step throw is reported, not a crash', () => {
  // The crash: the storage codegen called `.replace` on a boolean default
  // (TypeError: v.replace is not a function, scripts/codegen/storage.ts). A step that fails the same way:
  const storageLike = (schema: Json) => {
    for (const p of Object.values<Json>(schema.properties))
      if (p.default !== undefined) String((p.default as any).replace(/'/g, "''"));
  };

  it('at the property whose one-property copy of the schema throws too', async () => {
    const errors = await probeSchema({ file: FILE, schema: LOAN }, storageLike);
    expect(errors.map(formatDialectError)).toEqual([
      expect.stringMatching(
        /^schemas\/loan\.schema\.json#\/properties\/insured: codegen cannot generate from this \(TypeError: p\.default\.replace is not a function \(at scripts\/codegen\/dialect\.test\.ts:\d+\)\)$/,
      ),
    ]);
  });

  it('at the root when no single property makes it throw, and nothing when the steps succeed', async () => {
    const wholeSchema = (schema: Json) => {
      if (Object.keys(schema.properties).length > 5) throw new Error('too many fields');
    };
    const errors = await probeSchema({ file: FILE, schema: LOAN }, wholeSchema);
    expect(errors).toEqual([expect.objectContaining({ file: FILE, pointer: '' })]);
    expect(errors[0].reason).toMatch(
      /^codegen cannot generate from this \(too many fields \(at scripts\/codegen\/dialect\.test\.ts:\d+\)\)$/,
    );
    expect(await probeSchema({ file: FILE, schema: LOAN }, () => {})).toEqual([]);
  });
});

describe('npx tsx scripts/codegen.ts --check', { timeout: 180_000 }, () => {
  it('prints one line per error and exits 1, writing nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialect-'));
    try {
      copyFileSync(join('schemas', META_SCHEMA_FILE), join(dir, META_SCHEMA_FILE));
      for (const { file, schema } of SCHEMAS)
        writeFileSync(join(dir, file.replace(/^schemas\//, '')), JSON.stringify(schema));
      const loan = structuredClone(LOAN);
      loan['x-resource'].icon = 'Musem';
      loan.properties.insured.default = 'no';
      writeFileSync(join(dir, 'loan.schema.json'), JSON.stringify(loan));
      writeFileSync(join(dir, 'broken.schema.json'), '{ "$id": ');
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/codegen.ts', '--check'], {
        env: { ...process.env, CODEGEN_SCHEMAS_DIR: dir },
        encoding: 'utf8',
      });
      expect(run.status).toBe(1);
      const lines = run.stderr.trim().split('\n');
      expect(lines[0]).toMatch(/^The schemas are outside the dialect .*1 error\(s\):$/);
      expect(lines.slice(1)).toEqual([
        expect.stringMatching(/^schemas\/broken\.schema\.json#: is not JSON: /),
      ]);
      rmSync(join(dir, 'broken.schema.json'));
      const again = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/codegen.ts', '--check'], {
        env: { ...process.env, CODEGEN_SCHEMAS_DIR: dir },
        encoding: 'utf8',
      });
      expect(again.status).toBe(1);
      expect(again.stderr.trim().split('\n').slice(1)).toEqual([
        `${FILE}#/properties/insured/default: "no" is not of the property's type "boolean"`,
        `${FILE}#/x-resource/icon: "Musem" is not an @mui/icons-material icon (see https://mui.com/material-ui/material-icons/)`,
      ]);
      expect(again.stdout).not.toMatch(/wrote/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the meta-schema and the kernel agree', () => {
  const meta: Json = JSON.parse(readFileSync(`schemas/${META_SCHEMA_FILE}`, 'utf8'));
  const xKeywords = (node: Json) => Object.keys(node.properties).filter((k) => k.startsWith('x-'));

  it('declares exactly the x- keywords kernel/dialect/keywords.ts registers (no more, none left out)', async () => {
    const { ANNOTATION_KEYWORDS } = await import('../../kernel/dialect/keywords');
    const RULE_KEYWORDS = [
      'x-maxWidth',
      'x-plainText',
      'x-notFuture',
      'x-ordered',
      'x-uscc',
      'x-distinct',
      'x-text',
      'x-url',
    ];
    const declared = new Set([...xKeywords(meta), ...xKeywords(meta.definitions.property)]);
    // x-finite is the registry's own (query strings), never written in a schema.
    expect([...declared].sort()).toEqual([...ANNOTATION_KEYWORDS, ...RULE_KEYWORDS].sort());
  });

  it('offers the upload file groups of common/fileTypes.ts', async () => {
    const { FILE_GROUPS } = await import('../../common/fileTypes');
    expect(meta.definitions.upload.properties.types.items.enum).toEqual([...FILE_GROUPS]);
  });
});
