/**
 * A vitest reporter that writes one JSON line per test file to the file named by `TEST_TIMING_FILE`
 * (appended, so that several vitest runs of `scripts/test-all.sh` share it): the pass (`TEST_TIMING_PASS`,
 * e.g. `sqlite` or `postgres`), the project, the file relative to the repository root, its wall time
 * (first test started to last finished, ms, as seen by the main process), the time vitest counts for its
 * tests and hooks (ms), and its tests by state. `scripts/test-timing/summary.mjs` turns the lines into the
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
  private readonly started = new Map<string, number>();
  private readonly out = process.env.TEST_TIMING_FILE;
  private readonly pass = process.env.TEST_TIMING_PASS ?? 'run';

  onTestModuleStart(testModule: TestModule): void {
    this.started.set(testModule.id, Date.now());
  }

  onTestModuleEnd(testModule: TestModule): void {
    if (!this.out) return;
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const test of testModule.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') counts.passed++;
      else if (state === 'failed') counts.failed++;
      else counts.skipped++;
    }
    const line: TimingLine = {
      pass: this.pass,
      project: testModule.project.name,
      file: relative(process.cwd(), testModule.moduleId),
      wallMs: Date.now() - (this.started.get(testModule.id) ?? Date.now()),
      durationMs: Math.round(testModule.diagnostic().duration),
      ...counts,
    };
    appendFileSync(this.out, JSON.stringify(line) + '\n');
  }
}
