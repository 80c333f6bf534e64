/**
 * The keyword kinds of the schema fuzzer (issue 33 item 2): fields and root keywords that, with the
 * field kinds of tests/support/schemaArbitraries.ts, hold every keyword and value shape that
 * schemas/meta.schema.json admits, in every place it admits them (the coverage test,
 * tests/unit/schema-fuzz-coverage.test.ts, says which; tests/support/schemaFuzzCoverage.ts how):
 * - `place:<p>`: one property schema of each keyword bundle (schemaFuzzBundles.ts: text, number, link and upload,
 *   enum, const, list, object, map, `$ref`, boolean, several types, no type) at the place p: `top`
 *   (top-level properties, but the JSON values: several types or none), `nested` (the
 *   properties of an object property), `items` (an array property's items), `map` (a map's values,
 *   `additionalProperties`), `definitions` (`definitions`, each one also used by a top-level `$ref`);
 * - `widgets1`/`widgets2`: every `x-ui.widget`; `shapes`: the enum, boolean and upload shapes left;
 * - `counted`: `x-count` over another resource (with `key`) and over the resource's own table;
 *   `referenced`: `x-references` with `onDelete` and `foreignKey` (true, false);
 * - root keywords: `archive` (`x-archive`), `chain:<kind>` (`x-chain`), `frozen` (`x-frozen`), `distinct`
 *   (root `x-distinct`, `$comment`), `storage` (`x-storage` columns, write timestamps, indexes, display,
 *   search), `endpoints` (search, updateMany, getManyReference, aliases, idFrom, sort, roles), `resource`
 *   (`x-resource` roles, titles, routes, twoStep) and `hidden` (a data-only resource).
 * Every value is one the dialect rules (scripts/codegen/dialectRules.ts) accept, and each field's
 * records come from tests/support/recordArbitraries.ts like any other field's.
 */
import { bundles, definitionsFor, JSON_VALUES, L } from './schemaFuzzBundles';

type Json = Record<string, any>;

/** The keyword kinds (appended to schemaArbitraries.ts FIELD_KINDS). */
export const KEYWORD_KINDS = [
  'place:top',
  'place:nested',
  'place:items',
  'place:map',
  'place:definitions',
  'widgets1',
  'widgets2',
  'shapes',
  'counted',
  'referenced',
  'archive',
  'chain:artwork',
  'chain:author',
  'frozen',
  'distinct',
  'storage',
  'endpoints',
  'resource',
  'hidden',
] as const;
export type KeywordKind = (typeof KEYWORD_KINDS)[number];

/** What a keyword kind adds to a schema: top-level fields (in order), required ones, and root keywords. */
export interface KeywordPart {
  fields: [string, Json][];
  required: string[];
  /** Merged into the schema: objects one level deep (`x-storage`, `x-endpoints`, `definitions`...). */
  root: Json;
}

/** The names of the generated resource: `name` (x-resource.name), `path` (its calls' base path). */
export interface KeywordContext {
  name: string;
  path: string;
  /** A field name not yet used in the schema, from `base`. */
  fresh: (base: string) => string;
}

/** Top-level field labels and console hints. */
const top = (p: Json, en: string, zh: string, order: number, ui: Json = {}): Json => ({
  ...p,
  'x-i18n': L(en, zh),
  'x-ui': { ...(p['x-ui'] ?? {}), order, ...ui },
});

/** The part `kind` adds to the schema of `ctx` (see the module doc). */
export function keywordPart(kind: KeywordKind, ctx: KeywordContext, order: number): KeywordPart {
  const part: KeywordPart = { fields: [], required: [], root: {} };
  const add = (base: string, p: Json, en: string, zh: string, ui: Json = {}) => {
    const name = ctx.fresh(base);
    part.fields.push([name, top(p, en, zh, order + part.fields.length / 100, ui)]);
    return name;
  };
  const defName = `${ctx.name}Word`;
  const b = bundles(defName);
  const needsDefs = () => Object.assign((part.root.definitions ??= {}), definitionsFor(defName));
  switch (kind) {
    case 'place:top':
      // a const has one value: read-only at the top (two records' values must differ to be updated); a
      // JSON value is no record's own field (the dialect refuses it there)
      for (const [k, p] of Object.entries(b))
        if (!JSON_VALUES.includes(k))
          add(`top${k}`, k === 'const' ? { ...p, readOnly: true } : p, `Top ${k}`, `顶层${k}`);
      needsDefs();
      break;
    case 'place:nested':
      add('nested', { type: 'object', properties: b, additionalProperties: false }, 'Nested', '嵌套');
      needsDefs();
      break;
    case 'place:items':
      // `list` makes a list of lists; a list of enum values is labelled on the list (the items may too)
      for (const [k, p] of Object.entries(b))
        add(
          `items${k}`,
          {
            type: 'array',
            maxItems: 3,
            items: p,
            ...(p['x-enumLabels'] ? { 'x-enumLabels': p['x-enumLabels'] } : {}),
          },
          `Items ${k}`,
          `列表${k}`,
        );
      needsDefs();
      break;
    case 'place:map':
      for (const [k, p] of Object.entries(b))
        add(`map${k}`, { type: 'object', maxProperties: 3, additionalProperties: p }, `Map ${k}`, `映射${k}`);
      needsDefs();
      break;
    case 'place:definitions': {
      const defs: Json = (part.root.definitions = definitionsFor(defName));
      for (const [k, p] of Object.entries(b))
        if (k !== 'ref') {
          defs[`${ctx.name}${k}`] = p;
          const ref = { $ref: `#/definitions/${ctx.name}${k}` };
          add(
            `def${k}`,
            // a JSON value is used as a list's items (no record's own field)
            JSON_VALUES.includes(k)
              ? { type: 'array', maxItems: 3, items: ref }
              : { ...ref, ...(k === 'const' ? { readOnly: true } : {}) },
            `Defined ${k}`,
            `定义${k}`,
          );
        }
      // an integer definition (the number bundle's are numbers)
      defs[`${ctx.name}Count`] = { type: 'integer', minimum: 0, maximum: 99 };
      add('defcount', { $ref: `#/definitions/${ctx.name}Count` }, 'Defined count', '定义计数');
      break;
    }
    case 'widgets1': {
      const yes = L('Yes', '是');
      const no = L('No', '否');
      add(
        'chip',
        { type: 'integer', enum: [0, 1], default: 0, 'x-enumLabels': { 0: no, 1: yes } },
        'Chip',
        '标记',
        {
          widget: 'chip',
          filter: true,
        },
      );
      add(
        'switch',
        { type: 'integer', enum: [0, 1], default: 1, 'x-enumLabels': { 0: no, 1: yes } },
        'Switch',
        '开关',
        {
          widget: 'switch',
        },
      );
      add('hash', { type: ['string', 'null'], readOnly: true }, 'Hash', '哈希', {
        widget: 'hash',
        readOnly: true,
      });
      add('qrcode', { type: ['string', 'null'], maxLength: 64, 'x-plainText': true }, 'QR code', '二维码', {
        widget: 'qrcode',
      });
      add('link', { type: ['string', 'null'], maxLength: 1000, 'x-url': true }, 'Link', '链接', {
        widget: 'url',
      });
      add(
        'category',
        { type: 'string', minLength: 1, maxLength: 60, 'x-plainText': true },
        'Category',
        '分类',
        {
          widget: 'category',
        },
      );
      add(
        'steps',
        {
          type: 'array',
          maxItems: 4,
          items: {
            type: 'object',
            properties: {
              step: {
                type: 'string',
                enum: ['check', 'sign'],
                'x-enumLabels': { check: L('Check', '检查'), sign: L('Sign', '签字') },
                'x-i18n': L('Step', '步骤'),
              },
              at: { type: 'string', format: 'date', 'x-i18n': L('Date', '日期') },
            },
            required: ['step'],
            additionalProperties: false,
          },
        },
        'Steps',
        '步骤',
        { widget: 'steps' },
      );
      break;
    }
    case 'widgets2': {
      const img = { types: ['image'], maxSize: 2097152 };
      add(
        'image',
        { type: ['string', 'null'], maxLength: 1000, 'x-url': true, 'x-upload': img },
        'Image',
        '图片',
        {
          widget: 'image',
        },
      );
      add(
        'images',
        {
          type: 'array',
          maxItems: 3,
          items: { type: 'string', maxLength: 1000, 'x-url': true },
          'x-upload': img,
        },
        'Images',
        '图集',
        { widget: 'images' },
      );
      add(
        'file',
        {
          type: ['string', 'null'],
          maxLength: 1000,
          'x-url': true,
          'x-upload': { types: ['word', 'excel', 'ppt'], maxSize: 1048576 },
        },
        'File',
        '文件',
        { widget: 'file' },
      );
      add('secret', { type: 'string', writeOnly: true, minLength: 8, maxLength: 64 }, 'Secret', '密码', {
        widget: 'password',
      });
      add('json', { type: 'object', readOnly: true }, 'Record', '记录', { widget: 'json' });
      const template = add(
        'template',
        {
          type: 'integer',
          minimum: 1,
          maximum: 2147483647,
          'x-references': { resource: 'contractTemplates' },
        },
        'Template',
        '模板',
        { reference: 'contractTemplates' },
      );
      part.required.push(template);
      add(
        'params',
        {
          type: 'object',
          default: {},
          examples: [{ note: 'first' }, { note: 'second' }],
          'x-schemaFrom': { reference: template, field: 'paramsSchema' },
        },
        'Parameters',
        '参数',
        {
          widget: 'schemaFrom',
        },
      );
      // the same parameters below the top: in an object, a list's items, a map's values, a definition
      const scoped = (en: string, zh: string, widget = true) => ({
        type: 'object',
        examples: [{ note: 'first' }, { note: 'second' }],
        'x-schemaFrom': { reference: template, field: 'paramsSchema' },
        'x-i18n': L(en, zh),
        ...(widget ? { 'x-ui': { widget: 'schemaFrom' } } : {}),
      });
      add(
        'paramsNested',
        { type: 'object', properties: { params: scoped('Parameters', '参数') }, additionalProperties: false },
        'Nested parameters',
        '嵌套参数',
      );
      add(
        'paramsList',
        { type: 'array', maxItems: 2, items: scoped('Set', '组') },
        'Parameter sets',
        '参数组',
      );
      add(
        'paramsMap',
        { type: 'object', maxProperties: 2, additionalProperties: scoped('Set', '组', false) },
        'Parameters by name',
        '命名参数',
        { widget: 'json' },
      );
      part.root.definitions = { [`${ctx.name}Params`]: scoped('Parameters', '参数') };
      add('paramsDefined', { $ref: `#/definitions/${ctx.name}Params` }, 'Defined parameters', '定义参数');
      break;
    }
    case 'shapes':
      add(
        'colour',
        {
          type: ['string', 'null'],
          enum: ['red', 'blue', null],
          'x-enumLabels': { red: L('Red', '红'), blue: L('Blue', '蓝') },
        },
        'Colour',
        '颜色',
        { list: false, sortable: false, filter: false },
      );
      add(
        'flag',
        {
          type: 'boolean',
          enum: [true, false],
          'x-enumLabels': { true: L('On', '开'), false: L('Off', '关') },
        },
        'Flag',
        '旗',
      );
      add('year', { type: 'integer', minimum: 1900, maximum: 2020, 'x-notFuture': true }, 'Year', '年份');
      add(
        'uscc',
        {
          type: ['string', 'null'],
          pattern: '^[0-9A-HJ-NPQRTUWXY]{2}[0-9]{6}[0-9A-HJ-NPQRTUWXY]{10}$',
          'x-uscc': true,
          'x-plainText': false,
        },
        'Credit code',
        '信用代码',
      );
      add(
        'media',
        {
          type: ['string', 'null'],
          maxLength: 1000,
          'x-url': true,
          'x-upload': { types: ['video', 'audio'], maxSize: 1048576 },
        },
        'Media',
        '媒体',
      );
      add(
        'plain',
        {
          type: 'array',
          maxItems: 3,
          uniqueItems: false,
          items: { type: 'integer', maximum: 2000, 'x-notFuture': false },
        },
        'Numbers',
        '数字',
      );
      add('serial', { type: 'string', pattern: '^[A-Z]{3}-[0-9]{4}$', 'x-unique': true }, 'Serial', '序列号');
      break;
    case 'counted': {
      const author = add(
        'author',
        {
          type: ['integer', 'null'],
          minimum: 1,
          maximum: 2147483647,
          'x-references': { resource: 'authors' },
        },
        'Author',
        '作者',
        { reference: 'authors' },
      );
      add(
        'authorCount',
        { type: 'integer', readOnly: true, 'x-count': { resource: 'authors', field: 'id', key: author } },
        'Authors',
        '作者数',
      );
      add(
        'selfCount',
        { type: 'integer', readOnly: true, 'x-count': { resource: ctx.name, field: 'id' } },
        'Same id',
        '同编号数',
      );
      break;
    }
    case 'referenced':
      for (const [base, ref] of [
        ['kept', { resource: 'authors', onDelete: 'restrict', foreignKey: true }],
        ['loose', { resource: 'authors', foreignKey: false }],
      ] as const)
        add(
          base,
          { type: ['integer', 'null'], minimum: 1, maximum: 2147483647, 'x-references': ref },
          `Author ${base}`,
          `作者${base}`,
          {
            reference: 'authors',
          },
        );
      break;
    case 'archive':
      part.root['x-archive'] = true;
      break;
    case 'chain:artwork':
    case 'chain:author': {
      const status = add(
        'chainStatus',
        {
          type: 'integer',
          enum: [0, 1, 2],
          default: 0,
          readOnly: true,
          'x-enumLabels': { 0: L('Off', '未上链'), 1: L('Going', '上链中'), 2: L('On', '已上链') },
        },
        'Chain status',
        '上链状态',
        { widget: 'chip' },
      );
      const author = add(
        'chainAuthor',
        {
          type: ['integer', 'null'],
          minimum: 1,
          maximum: 2147483647,
          'x-references': { resource: 'authors' },
        },
        'Chain author',
        '上链作者',
        { reference: 'authors' },
      );
      part.root['x-chain'] = {
        kind: kind.slice(6),
        path: `${ctx.path}/chain`,
        status,
        onChain: [2],
        after: { field: author, resource: 'authors' },
      };
      break;
    }
    case 'frozen': {
      const state = add(
        'state',
        {
          type: 'integer',
          enum: [0, 9],
          default: 0,
          readOnly: true,
          'x-enumLabels': { 0: L('Open', '开放'), 9: L('Final', '终结') },
        },
        'State',
        '状态',
      );
      part.root['x-frozen'] = { when: { [state]: 9 }, keyword: 'final', message: 'This record is final' };
      break;
    }
    case 'distinct': {
      const a = add(
        'alias',
        { type: 'string', minLength: 1, maxLength: 30, 'x-plainText': true },
        'Alias',
        '别名',
      );
      const c = add('callSign', { type: ['string', 'null'], maxLength: 30 }, 'Call sign', '呼号');
      part.root['x-distinct'] = [[a, c]];
      part.root.$comment = 'schema fuzz: x-distinct at the root';
      break;
    }
    case 'storage': {
      const author = add(
        'owner',
        {
          type: ['integer', 'null'],
          minimum: 1,
          maximum: 2147483647,
          'x-references': { resource: 'authors' },
        },
        'Owner',
        '所有者',
        { reference: 'authors' },
      );
      const shown = add('ownerName', { type: ['string', 'null'], readOnly: true }, 'Owner name', '所有者名');
      const touched = add('updateTime', { type: 'string', readOnly: true }, 'Updated', '更新时间', {
        widget: 'datetime',
      });
      part.root['x-storage'] = {
        columns: {
          note: { type: 'text', notNull: true, default: '' },
          weight: { type: 'integer', notNull: false, default: 0 },
          ratio: { type: 'real', default: 0.5 },
          [touched]: { type: 'text', notNull: true },
        },
        timestamps: { [touched]: 'write' },
        indexes: ['title', 'weight'],
        display: { [shown]: { reference: author, field: 'authorName' } },
        search: { fields: ['title'], references: { [author]: ['authorName'] }, index: 'trigram' },
      };
      break;
    }
    case 'endpoints': {
      const author = add(
        'byAuthor',
        {
          type: ['integer', 'null'],
          minimum: 1,
          maximum: 2147483647,
          'x-references': { resource: 'authors' },
        },
        'By author',
        '按作者',
        { reference: 'authors' },
      );
      const p = ctx.path;
      part.root['x-endpoints'] = {
        search: { method: 'POST', path: `${p}/search`, sort: false, roles: ['admin'] },
        updateMany: { method: 'POST', path: `${p}/updateMany`, ids: 'ids' },
        getManyReference: { [author]: { method: 'GET', path: `${p}/ofAuthor`, id: 'id' } },
        getOne: {
          method: 'GET',
          path: `${p}/getInfo`,
          id: 'id',
          idFrom: ['id'],
          aliases: [{ method: 'GET', path: `${p}/info` }],
        },
        update: {
          method: 'POST',
          path: `${p}/update`,
          aliases: [{ method: 'POST', path: `${p}/retitle`, properties: ['title'] }],
        },
      };
      break;
    }
    case 'resource':
      part.root['x-resource'] = {
        roles: ['admin'],
        hidden: false,
        twoStep: true,
        titles: { list: 'authors', show: 'authorDetails', create: 'addAuthor', edit: 'editAuthor' },
        routes: [{ path: ':id/works', title: 'lookWorks' }],
      };
      break;
    case 'hidden':
      part.root['x-resource'] = { hidden: true, twoStep: false };
      break;
  }
  return part;
}
