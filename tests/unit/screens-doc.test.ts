/**
 * docs/screens-and-calls.md (issue 8's table of screens and calls) is what `npm run docs:screens` writes
 * from the routes and calls the code registers today (scripts/codegen/screens.ts): a stale table fails here.
 * Also checks the table itself: every named call and screen of the issue is a row, and the parser the API
 * test uses reads every call back.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { docsFiles, staleScreenFiles } from '../../scripts/docs-screens';
import { documentedCalls, ISSUE_8, probeStatus, SCREENS_DOC } from '../../scripts/codegen/screens';

let written: Promise<Record<string, string>> | undefined;
/**
 * What `npm run docs:screens` writes, generated once for the file's cases: it builds the app in memory and
 * asks it every call (seconds, more under load), and no case changes what it reads.
 */
const screenFiles = () => (written ??= docsFiles());

describe('docs/screens-and-calls.md', { timeout: 60_000 }, () => {
  it('is up to date (run `npm run docs:screens` if not)', async () => {
    expect(await staleScreenFiles(undefined, await screenFiles())).toEqual([]);
  });

  it('a changed table is reported stale', async () => {
    const onDisk = readFileSync(SCREENS_DOC, 'utf8');
    const edited = onDisk.replace('`POST /dev-api/user/add`', '`POST /dev-api/user/added`');
    expect(edited).not.toBe(onDisk);
    expect(
      await staleScreenFiles(
        (path) => (path === SCREENS_DOC ? edited : readFileSync(path, 'utf8')),
        await screenFiles(),
      ),
    ).toEqual([SCREENS_DOC]);
  });

  it('lists every call the issue names, and the API document every call', () => {
    const doc = readFileSync(SCREENS_DOC, 'utf8');
    const listed = documentedCalls(doc).map((c) => `${c.method} ${c.path}`);
    for (const { call } of ISSUE_8.calls) expect(listed).toContain(call);
    const openapi = JSON.parse(readFileSync('docs/openapi.json', 'utf8')) as {
      paths: Record<string, Record<string, unknown>>;
    };
    for (const [path, item] of Object.entries(openapi.paths))
      for (const m of Object.keys(item)) expect(listed).toContain(`${m.toUpperCase()} ${path}`);
    for (const s of ISSUE_8.screens) {
      const cell = s.what.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      expect(doc).toMatch(new RegExp(`\\|\\s*${cell}\\s*\\|`));
    }
  });

  it('a status says what the server answered', () => {
    const base = { code: 0, msg: '', fields: [], multipart: false, json: true };
    expect(probeStatus({ ...base, status: 200 })).toBe('answers');
    expect(probeStatus({ ...base, status: 400, code: 400, fields: ['id', 'id', ''] })).toBe(
      'answers; empty input refused naming `id`, the body',
    );
    // A refusal naming nothing, a missing route, a crash: BROKEN with the status.
    expect(probeStatus({ ...base, status: 400, code: 400 })).toMatch(/^BROKEN: 400/);
    expect(probeStatus({ ...base, status: 404, code: 404, msg: 'No such call' })).toBe(
      'BROKEN: 404 No such call',
    );
    expect(probeStatus({ ...base, status: 500, code: 500, msg: 'Internal' })).toBe('BROKEN: 500 Internal');
  });
});
