/**
 * The project's custom JSON Schema keywords, registered on an ajv 8 instance in strict mode.
 *
 * Validation keywords (each reports its own error with `params` the console can translate):
 * - `x-maxWidth` (number, on strings): display width at most N, where a CJK character counts 2 and any
 *   other character 1 (see displayWidth.ts). params: { limit, width }.
 * - `x-text` ('line' | 'multiline', on strings): the text policy of every string (docs/api.md "Text"): no
 *   lone UTF-16 surrogate, no C0/C1 control character (U+0000–U+001F, U+007F–U+009F, U+2028/9), except
 *   tab and line breaks in `multiline`. Not written in the schemas: the registry adds it to every string
 *   schema (`multiline` where `x-ui.widget` is `textarea`), schemaRegistry.ts `withDataPolicy`; a schema
 *   may write it to choose the mode. params: { reason: 'control' | 'surrogate' }.
 * - `x-plainText` (boolean, on strings; names and titles): no control character at all (tab and line
 *   breaks included), no bidirectional formatting character (U+202A–U+202E, U+2066–U+2069, U+200E/F,
 *   U+061C), no `<` or `>` (markup), not blank, not only invisible characters (zero-width, format
 *   characters). Stored trimmed and NFC-normalised (kernel/server/repository.ts).
 *   params: { reason: 'control' | 'bidi' | 'markup' | 'blank' | 'invisible' }.
 * - `x-finite` (boolean, on numbers): a finite number (the query build coerces "Infinity" to Infinity).
 *   Added by the registry to every number and integer schema, like `x-text`. params: {}.
 * - `x-url` (boolean, on strings): empty, an `http:`/`https:` URL or a `/uploads/...` path of this server
 *   (no `javascript:`, `data:`, ...). Declared in the schemas on every URL field. params: { reason: 'scheme' }.
 * - `x-notFuture` (boolean, on integers that are years): at most the current UTC year. params: { limit }.
 * - `x-ordered` (array of [a, b] property pairs, on objects): a <= b when both are numbers, or both ISO 8601
 *   dates of the same shape (compared as text). The error is reported at the second property
 *   (`instancePath` …/b, so the field is b, on create as on update). params: { first, second }.
 * - `x-uscc` (boolean, on strings): a Unified Social Credit Code's check character is right (GB 32100-2015,
 *   see {@link usccCheckCharacter}). Only an 18-character string over the code's alphabet is checked; its
 *   shape is the schema's `pattern`. params: { expected, actual }.
 * - `x-distinct` (array of [a, b] property pairs, on objects): when both are strings, they differ, compared
 *   trimmed and ignoring letter case ("Admin01" and "admin01" name the same account). The error is
 *   reported at the second property (`instancePath` …/b, so the field is b). params: { first, second }.
 *
 * The dialect, shapes of every keyword here included, is schemas/meta.schema.json (each schema's `$schema`,
 * {@link META_SCHEMA_REF}); codegen checks every schema against it and the rules it cannot say
 * (scripts/codegen/dialect.ts).
 *
 * Annotation keywords (no validation; read by codegen, server and console):
 * - `x-roles`: roles that may see and use the resource (root). Every role named here, in `x-resource.roles`
 *   or in a call's `roles` is one an account can hold: the account schema's `roles` enum, declared once
 *   (roles.ts; codegen refuses any other).
 * - `x-resource`: { name, recordRepresentation, icon, group, path, order, roles, hidden, titles, routes }
 *   (root): the resource, its menu entry and routes (scripts/codegen/resources.ts). `titles.<view>` (list,
 *   show, create, edit): the schema's own title `{ en, zh }`, or a key of the console's route titles
 *   (src/layout/i18n.ts `shell.route`); none: derived from the resource's `x-i18n` label.
 * - `x-endpoints`: react-admin verb -> { method, path, id?, ids?, sort?, idFrom?, aliases?, roles? } (root), see
 *   docs/api.md; `sort: false` and `idFrom` are read by src/dataProvider/index.ts (its header says how);
 *   `aliases: [{ method, path, properties? }]`: the same call also answers on these paths (the product's
 *   own paths beside today's), one implementation; on an update, `properties` narrows the body to `id` plus
 *   those properties (a section's call, e.g. `artwork/ArtSecurity`).
 *   `roles`: the roles admitted to this call when narrower than `x-roles` (checked by the server's gate
 *   and shown in docs/api.md), e.g. a template's writes for `admin` while `user` may read it.
 * - `x-ui`: { order, list, sortable, filter, widget, section, reference, readOnly } (property).
 * - `x-i18n`: { en, zh } labels (root: resource name "one |||| many"; property: field label).
 * - `x-enumLabels`: { [enumValue]: { en, zh } } (property).
 * - `x-sections` (root): { [section]: { en, zh, order? } }: the labels of the show page's and forms' section
 *   tabs (`x-ui.section`; `main` is the tab of the fields without a section, "Main" unless labelled here),
 *   generated as `resources.<name>.sections.<section>`; `order` places the tab (tabs without an order
 *   follow, in field order). A section named after a labelled property needs no entry.
 * - `x-upload`: { types: [group...], formats?: [ext...], maxSize: bytes } (property holding an uploaded
 *   file's URL, or an array of them): the file type groups of common/fileTypes.ts the upload accepts,
 *   checked by content, narrowed to the extensions `formats` names (`["jpg", "png"]`: JPG/PNG only), and
 *   the largest file. The server's upload calls read it (server/routes/artmanager/upload), the console's upload
 *   inputs build their `accept` and limit messages from it. A list's count limit is its `maxItems`. A string
 *   property with `x-upload` and no `x-ui.widget` is of kind `file` (kernel/dialect/kinds.ts).
 * - `x-chain` (root): `{ kind: 'author'|'artwork', path, status, onChain: [values], after?: { field, resource } }`:
 *   the records go on chain with `POST <path>` `{id}`; `status` is the property whose `onChain` values mean
 *   "on chain"; `after` names the reference that must be on chain first. Read by the console's list
 *   (row and bulk put on chain, src/schema-ui/chain.tsx).
 * - `x-schemaFrom` (property holding an object, at any depth: a top-level property, a nested object's
 *   property, an array's items, a map's values): `{ reference, field }`: the value must satisfy the JSON
 *   Schema stored in `field` of the record that the record's top-level property `reference` (an
 *   `x-references` integer) points at, e.g. a contract's `params` and its template's `paramsSchema`; every
 *   item of a list and value of a map is checked. The server checks it on create and update, defaults
 *   filled in (kernel/server/schemaFrom.ts, errors named `<path>.<param>`, e.g. `steps.0.params.note`);
 *   the console's `schemaFrom` widget renders and checks the parameters with the same schema
 *   (src/schema-ui/schemaFrom.tsx).
 * - `x-archive` (root, true): records can be archived to the pigeonhole (stored row kept whole in
 *   `archived_records`) and restored under their own id (server/routes/data-api/pigeonhole.ts); the
 *   console's list and show views get Archive buttons. The archive's kinds (`archivedRecord.resource`'s
 *   enum and labels) are derived from the schemas saying it (expand.ts): no other file is edited.

 * - `x-frozen` (root): `{ when: { [property]: value }, keyword, message }`: a stored record whose
 *   properties equal every value of `when` is final, e.g. a notification once sent (`{ "sent": 1 }`).
 *   The kernel refuses to update it (400 naming the first field of the body) or delete it (409 naming
 *   `id`, `params.ids` the final ones), with `keyword` and the English `message` (kernel/server/repository.ts);
 *   the console offers no Edit or Delete for it (src/authProvider/roles.ts `actionAllowed`).
 *
 * Storage keywords (annotation only; read by the server's kernel, kernel/server/model.ts, and by the
 * storage codegen, scripts/codegen/storage.ts, which turns a change into a new migration):
 * - `x-storage` (root): `{ table, columns?, timestamps?, indexes?, display?, search? }`:
 *   `table` the SQL table; `columns` stored columns the API never shows,
 *   `{ [name]: { type: 'text'|'integer'|'real', notNull?, default? } }` (a property's own name declares its
 *   column, keeping its unique and foreign key: e.g. NOT NULL for an optional property a hook fills);
 *   `timestamps`
 *   `{ [property]: 'create' | 'write' }`, set to the UTC time text on insert (and on every update for
 *   `write`); `indexes` property names with a plain index `<table>_<name>`; `display`
 *   `{ [name]: { reference, field } }` read-only fields joined from the record a reference property
 *   points at (e.g. an artwork's `authorName`); `search` `{ fields?, references?, index? }`: free text
 *   `q` matches the properties with `x-ui.filter: "q"`, plus `fields`, plus the fields of referenced
 *   records `{ [referenceProperty]: [field] }`; `index: "trigram"` keeps a substring index (FTS5 trigram
 *   table `<table>_fts` on SQLite, pg_trgm GIN indexes on PostgreSQL).
 * - `x-unique` (property, true): no two records share the value; the API answers 409 naming the field.
 * - `x-references` (property): `{ resource, onDelete?: 'restrict', foreignKey?: boolean }`: the value is
 *   the id of a record of `resource` (400 naming the field when none); a foreign key unless
 *   `foreignKey: false`; `onDelete: 'restrict'` refuses (409) to delete a record still referenced.
 * - `x-count` (property, read-only): `{ resource, field, key? }`: the number of records of `resource`
 *   whose `field` equals this record's `key` (default `id`); computed, not stored.
 *
 * Evolution keywords (annotation only; read by the storage codegen when it diffs the schemas against
 * server/db/migrations/storage.snapshot.json, scripts/codegen/storage/diff.ts; README "Changing a schema"):
 * - `x-renamedFrom` (property, string): the field's previous name; the migration renames the column and
 *   the audit trail's keys, so values and history are kept. May stay once the migration landed.
 * - `x-removed` (root, [field...]): fields removed on purpose; the migration copies their values to
 *   `removed_values` and drops the columns. A column missing without it is refused at codegen.
 * - `x-fill` (property, scalar): the value written into existing rows that lack the field when it becomes
 *   required (new without a default, or `required` added); without it the migration refuses such rows.
 * - `x-onBreak` (root): `{ [field]: { set: value } | { truncate: true } }`: what the migration writes into
 *   the rows a tightened rule (maxLength, minLength, maximum, minimum, enum, pattern, required) breaks;
 *   `truncate` cuts text to `maxLength`. Without it the migration is refused, naming rule and row ids.
 * - `x-storage.renamedFrom` (string): the table's previous name; the migration renames the table.
 */
import type Ajv from 'ajv';
import { _, Name, stringify, type CodeKeywordDefinition, type JSONType, type KeywordCxt } from 'ajv';
import * as rules from './keywordRules';

export { USCC_ALPHABET, usccCheckCharacter } from './keywordRules';

/**
 * The `$schema` of every resource schema: the dialect's meta-schema, `schemas/meta.schema.json`, relative
 * to the schema file (editors resolve it; codegen validates every schema against it,
 * scripts/codegen/metaSchema.ts).
 */
export const META_SCHEMA_REF = './meta.schema.json';

/** Names of the annotation-only keywords. */
export const ANNOTATION_KEYWORDS = [
  'x-roles',
  'x-resource',
  'x-endpoints',
  'x-ui',
  'x-i18n',
  'x-enumLabels',
  'x-storage',
  'x-unique',
  'x-references',
  'x-count',
  'x-upload',
  'x-chain',
  'x-schemaFrom',
  'x-archive',
  'x-frozen',
  'x-sections',
  'x-renamedFrom',
  'x-fill',
  'x-removed',
  'x-onBreak',
] as const;

/**
 * The identifier under which standalone validator code refers to kernel/dialect/keywordRules.ts: the keywords'
 * generated code calls `keywordRules.<rule>(schema, data)`, and the emitter (scripts/codegen/validators.ts)
 * adds `import * as keywordRules from './keywordRules'` to the generated module.
 */
export const RULES_IMPORT = 'keywordRules';

type RuleName =
  'maxWidth' | 'plainText' | 'notFuture' | 'ordered' | 'uscc' | 'distinct' | 'text' | 'finite' | 'url';

/**
 * A keyword whose code calls the rule `rule` of keywordRules.ts with the keyword's schema value (inlined
 * as a literal) and the data, and reports the rule's failure as the keyword's error (`params`, `message`;
 * at the failure's `property` when `atProperty`). Code keywords, unlike `validate` functions, can be
 * emitted as standalone code (ajv/dist/standalone), so the console runs no ajv compiler.
 */
function ruleKeyword(
  keyword: string,
  type: JSONType | undefined,
  schemaType: JSONType,
  rule: RuleName,
  atProperty = false,
): CodeKeywordDefinition {
  return {
    keyword,
    ...(type ? { type } : {}),
    schemaType,
    code(cxt: KeywordCxt) {
      const { gen, data, schema } = cxt;
      const fn = gen.scopeValue('func', {
        ref: rules[rule],
        code: _`${new Name(RULES_IMPORT)}.${new Name(rule)}`,
      });
      const failure = gen.const('failure', _`${fn}(${stringify(schema)}, ${data})`);
      gen.if(_`${failure} !== null`, () => {
        if (!atProperty) return cxt.error(false, { failure });
        const property = gen.const('property', _`${failure}.property`);
        cxt.error(false, { failure }, { instancePath: property });
      });
    },
    error: {
      message: ({ params }) => _`${params.failure}.message`,
      params: ({ params }) => _`${params.failure}.params`,
    },
  };
}

/** Registers every custom keyword on `ajv`. Call once per ajv instance, before adding schemas. */
export function registerKeywords(ajv: Ajv): Ajv {
  for (const keyword of ANNOTATION_KEYWORDS) ajv.addKeyword({ keyword });
  ajv.addKeyword(ruleKeyword('x-maxWidth', 'string', 'number', 'maxWidth'));
  ajv.addKeyword(ruleKeyword('x-plainText', 'string', 'boolean', 'plainText'));
  ajv.addKeyword(ruleKeyword('x-notFuture', 'number', 'boolean', 'notFuture'));
  ajv.addKeyword(ruleKeyword('x-ordered', 'object', 'array', 'ordered', true));
  ajv.addKeyword(ruleKeyword('x-uscc', 'string', 'boolean', 'uscc'));
  ajv.addKeyword(ruleKeyword('x-distinct', 'object', 'array', 'distinct', true));
  ajv.addKeyword(ruleKeyword('x-text', 'string', 'string', 'text'));
  // No `type`: ajv guards number keywords with isFinite(data), so a coerced "Infinity" would skip them.
  ajv.addKeyword(ruleKeyword('x-finite', undefined, 'boolean', 'finite'));
  ajv.addKeyword(ruleKeyword('x-url', 'string', 'boolean', 'url'));
  return ajv;
}
