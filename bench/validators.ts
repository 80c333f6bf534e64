/**
 * `npx tsx bench/validators.ts`: the validators' speed, printed (never asserted). Compares ajv compiling
 * the registry at run time (kernel/dialect/schemaCompiler.ts `createAjv`, what the server and the console did
 * before) with the precompiled standalone code (kernel/dialect/validators.ts, what both run now):
 *
 * 1. start-up: creating the ajv instances and compiling every schema and variant (both builds), against
 *    loading the generated modules (a fresh import in a child process would include module parsing; here
 *    the import time of this process is printed);
 * 2. validations per second on three calls: a valid `artwork.create` body, an invalid one (six errors),
 *    and an `artwork.listQuery` query string (coerced), each best of BENCH_ROUNDS rounds of
 *    BENCH_ITERATIONS calls, on a fresh copy of the input each call (ajv fills defaults / coerces in place).
 *
 * Environment: BENCH_ROUNDS (default 5), BENCH_ITERATIONS (default 20000).
 */
import { performance } from 'node:perf_hooks';
import type { SchemaValidator } from '../kernel/dialect/schemaRegistry';

const rounds = Number(process.env.BENCH_ROUNDS || 5);
const iterations = Number(process.env.BENCH_ITERATIONS || 20_000);

const t0 = performance.now();
const { queryValidatorFor, validatorFor } = await import('../kernel/dialect/validators');
const importMs = performance.now() - t0;
const { createAjv } = await import('../kernel/dialect/schemaCompiler');
const { schemasWithVariants } = await import('../kernel/dialect/schemaRegistry');

const t1 = performance.now();
const body = createAjv();
const query = createAjv({ coerceTypes: true });
for (const s of schemasWithVariants()) {
  body.getSchema(s.$id as string);
  query.getSchema(s.$id as string);
}
const compileMs = performance.now() - t1;

const validBody = {
  artWorkName: 'Sunset over the Thames',
  author: 12,
  classify: 'painting',
  texture: 'Oil paint on canvas',
  baseInfo: { startYear: 1840, endYear: 1845, size: '910 x 1220 mm' },
  dealInfo: { acquisitionYear: 1856 },
};
const invalidBody = {
  artWorkName: 'Sun<b>set</b>',
  author: 'twelve',
  classify: 'painting',
  texture: ' ',
  baseInfo: { startYear: 1850, endYear: 1845 },
  dealInfo: { acquisitionYear: 9999 },
  bogus: 1,
};
const listQuery = { page: '2', pageSize: '50', sort: 'artWorkName', order: 'DESC', author: '12' };

/** Best validations per second of `validate` on copies of `input` over the rounds. */
function opsPerSecond(validate: SchemaValidator, input: unknown): number {
  let best = 0;
  for (let r = 0; r < rounds; r++) {
    const copies = Array.from({ length: iterations }, () => structuredClone(input));
    const start = performance.now();
    for (const c of copies) validate(c);
    const ms = performance.now() - start;
    best = Math.max(best, (iterations / ms) * 1000);
  }
  return best;
}

const cases: [string, unknown, SchemaValidator, SchemaValidator][] = [
  [
    'artwork.create, valid',
    validBody,
    body.getSchema('artwork.create') as SchemaValidator,
    validatorFor('artwork.create'),
  ],
  [
    'artwork.create, invalid',
    invalidBody,
    body.getSchema('artwork.create') as SchemaValidator,
    validatorFor('artwork.create'),
  ],
  [
    'artwork.listQuery (coerced)',
    listQuery,
    query.getSchema('artwork.listQuery') as SchemaValidator,
    queryValidatorFor('artwork.listQuery'),
  ],
];

console.log(
  `start-up: run-time compile of ${schemasWithVariants().length} ids × 2 builds ${compileMs.toFixed(0)} ms;`,
);
console.log(
  `          import of the precompiled modules ${importMs.toFixed(0)} ms (includes loading the registry)`,
);
console.log(`validations/s (best of ${rounds} × ${iterations}):`);
for (const [name, input, runtime, precompiled] of cases) {
  const a = opsPerSecond(runtime, input);
  const b = opsPerSecond(precompiled, input);
  console.log(
    `  ${name.padEnd(30)} run-time ${Math.round(a).toLocaleString('en').padStart(10)}   precompiled ${Math.round(
      b,
    )
      .toLocaleString('en')
      .padStart(10)}   (${(b / a).toFixed(2)}×)`,
  );
}
