/**
 * The company keywords: `x-uscc` (GB 32100-2015 check character) and `x-distinct` (two properties must
 * differ), on their own and through the `company.create` variant.
 */
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { registerKeywords, USCC_ALPHABET, usccCheckCharacter } from './keywords';
import { formatErrors } from './schemaRegistry';
import { validatorFor } from './validators';

/**
 * Codes of well-known companies, as they publish them (business licence / National Enterprise Credit
 * Information Publicity System). Their check characters were recomputed by hand with the GB 32100-2015
 * formula (weights 3^(i-1) mod 31, C18 = 31 − Σ mod 31); a wrongly remembered code would agree with the
 * formula only by a 1-in-31 chance.
 */
const PUBLISHED = [
  ['91440300708461136T', '深圳市腾讯计算机系统有限公司 (Tencent)'],
  ['914403001922038216', '华为技术有限公司 (Huawei Technologies)'],
  ['91110108551385082Q', '小米科技有限责任公司 (Xiaomi)'],
] as const;

describe('usccCheckCharacter (GB 32100-2015)', () => {
  it.each(PUBLISHED)('gives the published check character of %s (%s)', (code) => {
    expect(usccCheckCharacter(code)).toBe(code[17]);
  });

  it('uses the weights 3^(i-1) mod 31 and maps 31 to 0', () => {
    // Σ = value(first char) × 1 when the other 16 are "0": first char "1" → 31 − 1 = 30 → "Y".
    expect(usccCheckCharacter('10000000000000000')).toBe('Y');
    // All zeros: Σ = 0 → 31 − 0 = 31 → 0 → "0".
    expect(usccCheckCharacter('00000000000000000')).toBe('0');
    // Position 2 weighs 3: "01…" → 31 − 3 = 28 → "W".
    expect(usccCheckCharacter('01000000000000000')).toBe('W');
    expect(USCC_ALPHABET).toHaveLength(31);
    expect(USCC_ALPHABET).not.toMatch(/[IOSVZ]/);
  });

  it('answers null for too short codes and characters outside the alphabet', () => {
    expect(usccCheckCharacter('9144030070846113')).toBeNull();
    expect(usccCheckCharacter('9144030070846113I')).toBeNull();
  });
});

describe('x-uscc and x-distinct on a bare ajv', () => {
  const ajv = registerKeywords(new Ajv({ strict: true, allErrors: true }));
  const code = ajv.compile({ type: 'string', 'x-uscc': true });
  const pair = ajv.compile({
    type: 'object',
    properties: { inner: { type: 'object', 'x-distinct': [['a', 'b']] } },
  });

  it('x-uscc accepts the published codes and refuses every other check character', () => {
    for (const [c] of PUBLISHED) {
      expect(code(c)).toBe(true);
      for (const wrong of USCC_ALPHABET.replace(c[17], '')) {
        expect(code(c.slice(0, 17) + wrong), c.slice(0, 17) + wrong).toBe(false);
        expect(code.errors?.[0]).toMatchObject({
          keyword: 'x-uscc',
          params: { expected: c[17], actual: wrong },
        });
      }
    }
  });

  it('x-uscc leaves other shapes to the pattern keyword', () => {
    expect(code('123')).toBe(true);
    expect(code('91440300708461136I')).toBe(true);
  });

  it('x-distinct refuses equal values (trimmed, any letter case) and reports the second property', () => {
    expect(pair({ inner: { a: 'ops01', b: 'ops02' } })).toBe(true);
    expect(pair({ inner: { a: 'ops01' } })).toBe(true);
    expect(pair({ inner: { a: 'Ops01', b: ' ops01' } })).toBe(false);
    expect(pair.errors).toEqual([
      expect.objectContaining({
        keyword: 'x-distinct',
        instancePath: '/inner/b',
        params: { first: 'a', second: 'b' },
      }),
    ]);
  });
});

describe('company.create', () => {
  const v = validatorFor('company.create');
  // A made-up company; its code is synthetic (check character computed by usccCheckCharacter).
  const ok = {
    companyName: '北京示例制药有限公司',
    creditCode: '91110105MA01ABCD13',
    licenseNo: '京20150001',
    adminAccount: 'admin.shili',
    adminName: '赵敏',
    backupAdminAccount: 'ops.shili',
    backupAdminName: '钱进',
    contactPhone: '0755-83360999',
  };
  const errorsOf = (body: unknown) => (v(body) ? [] : formatErrors(v.errors));

  it('accepts a valid company and fills status = 1', () => {
    const body: Record<string, unknown> = { ...ok };
    expect(errorsOf(body)).toEqual([]);
    expect(body.status).toBe(1);
  });

  it('names the field of a wrong check character, a bad shape and identical admin accounts', () => {
    expect(errorsOf({ ...ok, creditCode: '91110105MA01ABCD1A' })).toEqual([
      expect.objectContaining({
        field: 'creditCode',
        keyword: 'x-uscc',
        params: { expected: '3', actual: 'A' },
      }),
    ]);
    expect(errorsOf({ ...ok, creditCode: '91110105MA01ABCD1' })).toEqual([
      expect.objectContaining({ field: 'creditCode', keyword: 'pattern' }),
    ]);
    expect(errorsOf({ ...ok, backupAdminAccount: 'Admin.Shili' })).toEqual([
      expect.objectContaining({ field: 'backupAdminAccount', keyword: 'x-distinct' }),
    ]);
  });

  it.each(['13812345678', '+86 13812345678', '010-12345678', '0755-8336099', '021-12345678-801'])(
    'accepts the phone %s',
    (contactPhone) => expect(errorsOf({ ...ok, contactPhone })).toEqual([]),
  );

  it.each(['12812345678', '1381234567', '12345678', '+1 4155550100', '010-123456'])(
    'refuses the phone %s',
    (contactPhone) =>
      expect(errorsOf({ ...ok, contactPhone })).toEqual([
        expect.objectContaining({ field: 'contactPhone', keyword: 'pattern' }),
      ]),
  );
});

describe('x-ordered names the second field (create and update alike)', () => {
  const notice = {
    $id: 'orderedNotice',
    type: 'object',
    'x-ordered': [['startDate', 'endDate']],
    properties: {
      startDate: { type: 'string' },
      endDate: { type: 'string' },
      range: {
        type: 'object',
        'x-ordered': [['from', 'to']],
        properties: { from: { type: 'integer' }, to: { type: 'integer' } },
      },
    },
  };
  const validate = registerKeywords(new Ajv({ allErrors: true })).compile(notice);

  it('a top-level pair: field is the second property, not the record ("")', () => {
    expect(validate({ startDate: '2026-05-02', endDate: '2026-05-01' })).toBe(false);
    expect(formatErrors(validate.errors)).toEqual([
      {
        field: 'endDate',
        keyword: 'x-ordered',
        params: { first: 'startDate', second: 'endDate' },
        message: 'endDate: startDate must not be after endDate',
      },
    ]);
  });

  it('a nested pair: field is <object>.<second>', () => {
    expect(validate({ range: { from: 2, to: 1 } })).toBe(false);
    expect(formatErrors(validate.errors).map((e) => e.field)).toEqual(['range.to']);
    expect(validate({ startDate: '2026-05-01', endDate: '2026-05-01', range: { from: 1, to: 1 } })).toBe(
      true,
    );
  });

  it('the artwork create variant names baseInfo.endYear', () => {
    const create = validatorFor('artwork.create');
    const body = { artWorkName: 'x', author: 1, classify: 'x', texture: 'x' };
    expect(create({ ...body, baseInfo: { startYear: 1950, endYear: 1900 } })).toBe(false);
    expect(formatErrors(create.errors).map((e) => `${e.field}:${e.keyword}`)).toEqual([
      'baseInfo.endYear:x-ordered',
    ]);
  });
});
