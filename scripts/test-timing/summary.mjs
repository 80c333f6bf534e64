/**
 * The time table printed at the end of `npm run test:all` (scripts/test-all.sh).
 *
 * Usage: `node scripts/test-timing/summary.mjs STEPS_TSV TIMING_JSONL`
 * - STEPS_TSV: one line per step, `name<TAB>start ms<TAB>end ms<TAB>exit status` (epoch ms; steps may
 *   overlap, so the total is the last end minus the first start);
 * - TIMING_JSONL: one JSON line per test file, written by scripts/test-timing/reporter.ts.
 *
 * Prints each step's wall time, the tests per project and pass, the 15 slowest test files with their
 * project, and a warning line (it never fails) for each test file over the 3-minute budget
 * (`TEST_FILE_BUDGET_S`, seconds). Its last line counts the tests of every pass:
 * `tests: N passed, N failed, N skipped`.
 */
import { existsSync, readFileSync } from 'node:fs';

const [stepsFile, timingFile] = process.argv.slice(2);
const budgetS = Number(process.env.TEST_FILE_BUDGET_S || 180);

/** `m:ss` of a duration in ms. */
const clock = (ms) => {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};
const pad = (text, width) => String(text).padEnd(width);
const lpad = (text, width) => String(text).padStart(width);

const steps = existsSync(stepsFile)
  ? readFileSync(stepsFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const [name, start, end, status] = l.split('\t');
        return { name, start: Number(start), end: Number(end), status };
      })
  : [];
const files = existsSync(timingFile)
  ? readFileSync(timingFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
  : [];

console.log('\n== time table');
if (steps.length) {
  const first = Math.min(...steps.map((s) => s.start));
  const last = Math.max(...steps.map((s) => s.end));
  const width = Math.max(...steps.map((s) => s.name.length), 5);
  console.log(`${pad('step', width)}  ${lpad('from', 5)}  ${lpad('wall', 5)}  status`);
  for (const s of steps)
    console.log(
      `${pad(s.name, width)}  ${lpad(clock(s.start - first), 5)}  ${lpad(clock(s.end - s.start), 5)}  ${s.status === '0' ? 'ok' : `exit ${s.status}`}`,
    );
  console.log(`${pad('total', width)}  ${lpad('', 5)}  ${lpad(clock(last - first), 5)}`);
}

if (files.length) {
  const groups = new Map();
  for (const f of files) {
    const key = `${f.pass} ${f.project}`;
    const g = groups.get(key) ?? { files: 0, passed: 0, failed: 0, skipped: 0, wallMs: 0 };
    g.files++;
    g.passed += f.passed;
    g.failed += f.failed;
    g.skipped += f.skipped;
    g.wallMs += f.wallMs;
    groups.set(key, g);
  }
  console.log('\ntests per pass and project (file time summed, files may overlap)');
  console.log(
    `${pad('pass project', 22)}  ${lpad('files', 5)}  ${lpad('passed', 6)}  ${lpad('failed', 6)}  ${lpad('skipped', 7)}  ${lpad('time', 6)}`,
  );
  for (const [key, g] of [...groups].sort())
    console.log(
      `${pad(key, 22)}  ${lpad(g.files, 5)}  ${lpad(g.passed, 6)}  ${lpad(g.failed, 6)}  ${lpad(g.skipped, 7)}  ${lpad(clock(g.wallMs), 6)}`,
    );

  console.log('\nthe 15 slowest test files (wall time)');
  for (const f of [...files].sort((a, b) => b.wallMs - a.wallMs).slice(0, 15))
    console.log(`${lpad(clock(f.wallMs), 6)}  ${pad(f.pass, 8)}  ${pad(f.project, 10)}  ${f.file}`);

  for (const f of files.filter((f) => f.wallMs > budgetS * 1000))
    console.log(
      `WARNING: ${f.file} (${f.pass} ${f.project}) took ${clock(f.wallMs)}, over the ${clock(budgetS * 1000)} budget of a test file`,
    );
}

// The closing line, over every pass: what CI reads for the number of tests run.
const sum = (key) => files.reduce((n, f) => n + f[key], 0);
console.log(`\ntests: ${sum('passed')} passed, ${sum('failed')} failed, ${sum('skipped')} skipped`);
