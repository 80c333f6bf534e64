/**
 * A vitest reporter that writes one JSON line per test file to the file named by `TEST_TIMING_FILE`
 * (appended, so that several vitest runs share it): the pass (`postgres` for the projects vitest.config.ts
 * names `pg-…`, the second API pass, else `TEST_TIMING_PASS`, e.g. `sqlite`), the project (without
 * `pg-`), the file relative to the repository root, its time (ms: the environment's set-up, the import of the file and what it imports, the set-up files, its tests and hooks),
 * the part of it spent in tests and hooks (ms), and its tests by state. `scripts/test-timing/summary.mjs` turns the lines into the
 * table printed at the end of `npm run test:all`. Does nothing without `TEST_TIMING_FILE`.
 */
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** One line of the timing file (see the module doc). */
export interface TimingLine {
  pass: string;
  project: string;
  file: string;
  wallMs: number;
  durationMs: number;
  passed: number;
  failed: number;
  skipped: number;
}

export default class TimingReporter implements Reporter {
  private readonly out = process.env.TEST_TIMING_FILE;
  private readonly pass = process.env.TEST_TIMING_PASS ?? 'run';

  onTestModuleEnd(testModule: TestModule): void {
    if (!this.out) return;
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const test of testModule.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') counts.passed++;
      else if (state === 'failed') counts.failed++;
      else counts.skipped++;
    }
    const d = testModule.diagnostic();
    const name = testModule.project.name;
    const line: TimingLine = {
      pass: name.startsWith('pg-') ? 'postgres' : this.pass,
      project: name.replace(/^pg-/, ''),
      file: relative(process.cwd(), testModule.moduleId),
      wallMs: Math.round(
        d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration,
      ),
      durationMs: Math.round(d.duration),
      ...counts,
    };
    appendFileSync(this.out, JSON.stringify(line) + '\n');
  }
}
