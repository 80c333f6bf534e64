/**
 * The text and number policy (docs/api.md "Text", "Numbers"): the rules of keywordRules.ts on their own,
 * and through the precompiled variants the server and the console run (the registry adds `x-text` and
 * `x-finite` to every string and number, kernel/dialect/schemaRegistry.ts `withDataPolicy`).
 */
import { describe, expect, it } from 'vitest';
import { finite, plainText, text, url } from '../kernel/dialect/keywordRules';
import { formatErrors, withDataPolicy } from '../kernel/dialect/schemaRegistry';
import { queryValidatorFor, validatorFor } from '../kernel/dialect/validators';

describe('x-text rule', () => {
  it.each([
    ['a\u0000b', 'line', 'control'],
    ['a\u0007', 'multiline', 'control'],
    ['a\u0085b', 'multiline', 'control'],
    ['a\u009bb', 'line', 'control'],
    ['a\u007f', 'line', 'control'],
    ['line\nbreak', 'line', 'control'],
    ['tab\there', 'line', 'control'],
    ['a\u2028b', 'line', 'control'],
    ['\ud800', 'multiline', 'surrogate'],
    ['x\udc00y', 'line', 'surrogate'],
    ['\udc00\ud800', 'line', 'surrogate'],
  ] as const)('refuses %j (%s): %s', (data, mode, reason) => {
    expect(text(mode, data)).toMatchObject({ params: { reason } });
  });

  it.each([
    ['Turner, Joseph Mallord William', 'line'],
    ['徐悲鸿 🎨', 'line'],
    ['l1\nl2\r\n\tl3', 'multiline'],
    ['', 'line'],
  ] as const)('accepts %j (%s)', (data, mode) => {
    expect(text(mode, data)).toBeNull();
  });
});

describe('x-plainText rule (names and titles)', () => {
  it.each([
    ['a\u202eb', 'bidi'],
    ['a\u2066b\u2069', 'bidi'],
    ['\u200fname', 'bidi'],
    ['a\u061cb', 'bidi'],
    ['\u200b\u200b\u200b', 'invisible'],
    ['\u200d\ufeff\u2060', 'invisible'],
    ['\u3164', 'invisible'],
    ['   ', 'blank'],
    ['two\nlines', 'control'],
    ['tab\tname', 'control'],
    ['next\u0085line', 'control'],
    ['<b>', 'markup'],
  ])('refuses %j: %s', (data, reason) => {
    expect(plainText(true, data)).toMatchObject({ params: { reason } });
  });

  it.each(['Joseph Mallord William Turner', '齐白石', 'Zoë', 'Ñandú 1999', 'a\u200db'])(
    'accepts %j',
    (data) => {
      expect(plainText(true, data)).toBeNull();
    },
  );
});

describe('x-finite and x-url rules', () => {
  it('x-finite refuses Infinity and NaN, accepts finite numbers', () => {
    expect(finite(true, Infinity)).not.toBeNull();
    expect(finite(true, -Infinity)).not.toBeNull();
    expect(finite(true, NaN)).not.toBeNull();
    expect(finite(true, 1e300)).toBeNull();
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:x',
    'file:///etc/passwd',
    '//evil.example/x.png',
    'uploads/x.png',
    '/uploads/../secret',
    '/etc/passwd',
    'http://',
    'https://a b.example/',
  ])('x-url refuses %j', (data) => {
    expect(url(true, data)).toMatchObject({ params: { reason: 'scheme' } });
  });

  it.each([
    '',
    'http://www.tate.org.uk/art/images/work/A/A00/A00001_8.jpg',
    'https://example.com/a?b=c#d',
    '/uploads/2026/11/portrait.png',
  ])('x-url accepts %j', (data) => {
    expect(url(true, data)).toBeNull();
  });
});

describe('withDataPolicy', () => {
  it('adds x-text to strings (multiline for textarea), x-finite to numbers and the id range to references', () => {
    const out: { properties: Record<string, any> } = withDataPolicy(
      {
        type: 'object',
        properties: {
          name: { type: ['string', 'null'] },
          intro: { type: 'string', 'x-ui': { widget: 'textarea' } },
          own: { type: 'string', 'x-text': 'multiline' },
          n: { type: 'number' },
          author: { type: 'integer', 'x-references': { resource: 'authors' } },
          list: { type: 'array', items: { type: 'string' } },
          choice: { type: 'string', enum: ['a', 'b'] },
        },
      },
      { finite: true },
    );
    expect(out.properties.name['x-text']).toBe('line');
    expect(out.properties.intro['x-text']).toBe('multiline');
    expect(out.properties.own['x-text']).toBe('multiline');
    expect(out.properties.n['x-finite']).toBe(true);
    expect(out.properties.author).toMatchObject({ minimum: 1, maximum: 2147483647, 'x-finite': true });
    expect(out.properties.list.items['x-text']).toBe('line');
    expect(out.properties.choice['x-text']).toBeUndefined();
    expect(withDataPolicy({ type: 'number' })).toEqual({ type: 'number' });
  });

  it("bodies need no x-finite: JSON 1e400 parses to Infinity, which ajv's type refuses", () => {
    const body = JSON.parse('{"artWorkName":"x","author":1e400,"classify":"x","texture":"x"}');
    expect(errorsOf('artwork.create', body)).toContainEqual(['author', 'type']);
    const size = JSON.parse(
      '{"artWorkName":"x","author":1,"classify":"x","texture":"x","dealInfo":{"acquisitionYear":1e400}}',
    );
    expect(errorsOf('artwork.create', size).map(([f]) => f)).toContain('dealInfo.acquisitionYear');
  });
});

/** The field errors of validating `data` against the variant `id` (query build when `query`). */
function errorsOf(id: string, data: Record<string, unknown>, query = false) {
  const validate = (query ? queryValidatorFor : validatorFor)(id);
  const copy = structuredClone(data);
  return validate(copy) ? [] : formatErrors(validate.errors).map((e) => [e.field, e.keyword]);
}

describe('the policy in the precompiled variants', () => {
  it.each([
    [{ pageSize: 'Infinity' }, 'pageSize'],
    [{ page: 'Infinity' }, 'page'],
    [{ page: '1e400' }, 'page'],
    [{ page: '-Infinity' }, 'page'],
    [{ page: 'NaN' }, 'page'],
    [{ page: '1000001' }, 'page'],
    [{ ids: '1,2147483648' }, 'ids'],
    [{ ids: '0' }, 'ids'],
    [{ q: 'a\u0000b' }, 'q'],
  ])('author.listQuery refuses %j at %s', (query, field) => {
    expect(errorsOf('author.listQuery', query, true).map(([f]) => f)).toContain(field);
  });

  it('accepts the largest page and id', () => {
    expect(errorsOf('author.listQuery', { page: '1000000', ids: '1,2147483647' }, true)).toEqual([]);
  });

  it('keeps the id range on reference filters (query and body)', () => {
    expect(errorsOf('artwork.listQuery', { author: '2147483648' }, true)).toContainEqual([
      'author',
      'maximum',
    ]);
    expect(errorsOf('artwork.listBody', { author: 2147483648 })).toContainEqual(['author', 'maximum']);
    expect(errorsOf('artwork.listBody', { author: 0 })).toContainEqual(['author', 'minimum']);
  });

  it('refuses controls in every string of a body, allows line breaks in textarea fields only', () => {
    expect(errorsOf('author.create', { authorName: 'ok', introduction: 'l1\nl2' })).toEqual([]);
    expect(errorsOf('author.create', { authorName: 'ok', introduction: 'a\u0000' })).toContainEqual([
      'introduction',
      'x-text',
    ]);
    expect(errorsOf('author.create', { authorName: 'a\nb' })).toContainEqual(['authorName', 'x-plainText']);
    expect(errorsOf('author.create', { authorName: '\ud800x' })).toContainEqual(['authorName', 'x-text']);
    expect(errorsOf('author.create', { authorName: 'ok', portrait: 'javascript:alert(1)' })).toContainEqual([
      'portrait',
      'x-url',
    ]);
    expect(errorsOf('author.create', { authorName: 'ok', wxUrl: 'javascript:alert(1)' })).toContainEqual([
      'wxUrl',
      'x-url',
    ]);
  });
});
