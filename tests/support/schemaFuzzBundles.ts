/**
 * The keyword bundles of the schema fuzzer's keyword kinds (tests/support/schemaFuzzKeywords.ts): one
 * property schema per group of keywords, placed by the `place:<p>` kinds at every place a property schema
 * sits (issue 33 item 2).
 */
type Json = Record<string, any>;

/** A label in English and Chinese. */
export const L = (en: string, zh: string) => ({ en, zh });

/**
 * The keyword bundles: one property schema each, fit for every place (no top-only keyword), but
 * {@link JSON_VALUES} (not a record's own field). Together they hold every keyword of a property schema
 * but `x-schemaFrom`, `x-unique`, `x-references` and `x-count` (top-level only), and every shape of `type`:
 * `list` in an array's items is a list of lists, `flag` a list of booleans, `mixed` and `any` (several
 * types, none) a list of JSON values.
 */
export function bundles(defName: string): Record<string, Json> {
  return {
    text: {
      type: 'string',
      title: 'Word',
      description: 'A capitalised word.',
      $comment: 'schema fuzz: the string keywords',
      minLength: 3,
      maxLength: 12,
      pattern: '^[A-Z][a-z]{2,11}$',
      examples: ['Alpha', 'Gamma'],
      default: 'Alpha',
      'x-maxWidth': 12,
      'x-plainText': true,
      'x-text': 'line',
      'x-uscc': false,
      'x-url': false,
      readOnly: false,
      writeOnly: false,
      'x-i18n': L('Word', '词'),
      'x-ui': { order: 1, readOnly: false },
    },
    number: {
      type: 'number',
      minimum: 0,
      maximum: 10,
      exclusiveMinimum: 0,
      exclusiveMaximum: 10,
      multipleOf: 0.5,
      'x-notFuture': true,
      'x-i18n': L('Score', '分数'),
    },
    link: {
      type: ['string', 'null'],
      format: 'uri',
      maxLength: 300,
      'x-url': true,
      'x-text': 'multiline',
      'x-upload': { types: ['pdf', 'txt'], formats: ['pdf', 'txt'], maxSize: 1048576 },
      'x-i18n': L('Attachment', '附件'),
    },
    enum: {
      type: ['number', 'null'],
      enum: [0.5, 1.5, null],
      'x-enumLabels': { '0.5': L('Half', '半'), '1.5': L('One and a half', '一个半') },
      'x-i18n': L('Ratio', '比例'),
    },
    const: { type: 'string', const: 'fixed', default: 'fixed', 'x-i18n': L('Fixed', '固定') },
    list: {
      type: 'array',
      items: { type: 'string', pattern: '^[a-z]{1,8}$', maxLength: 8 },
      minItems: 0,
      maxItems: 3,
      uniqueItems: true,
      'x-i18n': L('Tags', '标签'),
    },
    object: {
      type: 'object',
      properties: {
        first: {
          type: 'string',
          minLength: 1,
          maxLength: 20,
          'x-plainText': true,
          'x-i18n': L('First', '甲'),
        },
        second: {
          type: 'string',
          minLength: 1,
          maxLength: 20,
          'x-plainText': true,
          'x-i18n': L('Second', '乙'),
        },
        lo: { type: 'integer', minimum: 0, maximum: 100, 'x-i18n': L('Low', '低') },
        hi: { type: 'integer', minimum: 0, maximum: 100, 'x-i18n': L('High', '高') },
      },
      required: ['first'],
      additionalProperties: false,
      propertyNames: { pattern: '^[a-z]+$', maxLength: 10 },
      minProperties: 1,
      maxProperties: 4,
      'x-ordered': [['lo', 'hi']],
      'x-distinct': [['first', 'second']],
      'x-i18n': L('Pair', '对'),
    },
    map: {
      type: 'object',
      additionalProperties: { type: 'integer', minimum: 0, maximum: 99 },
      propertyNames: { pattern: '^[a-z]{1,8}$', maxLength: 8 },
      minProperties: 0,
      maxProperties: 3,
      'x-i18n': L('Counts', '计数'),
    },
    ref: { $ref: `#/definitions/${defName}`, 'x-i18n': L('Defined word', '定义词') },
    flag: { type: 'boolean', 'x-i18n': L('Checked', '已核对') },
    mixed: {
      type: ['string', 'integer', 'null'],
      maxLength: 12,
      minimum: 0,
      maximum: 999,
      'x-i18n': L('Code or number', '编码或编号'),
    },
    any: { description: 'Any JSON value.', 'x-i18n': L('Any value', '任意值') },
  };
}

/**
 * The bundles of several types or of none: JSON values (kernel/dialect/kinds.ts `json`), which the
 * dialect takes in an object, a list or a map, not as a record's own field (a column of one type).
 */
export const JSON_VALUES: readonly string[] = ['mixed', 'any'];

/** The definition every `ref` bundle names (a definition that is itself a `$ref`: a chain of two). */
export function definitionsFor(defName: string): Json {
  return {
    [defName]: { $ref: `#/definitions/${defName}Base` },
    [`${defName}Base`]: { ...bundles(defName).text, 'x-ui': { order: 1 } },
  };
}
