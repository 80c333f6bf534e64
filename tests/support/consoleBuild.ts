/**
 * Builds the console (`vite build`, with the project's vite.config.ts: precompressed `.br`/`.gz` copies)
 * into a directory and keeps what the build knows about each JavaScript chunk: its file name, the
 * modules in it (repository-relative paths, `node_modules/<pkg>/...` for packages), its gzip size (the
 * build's `.gz` copy, gzip level 9) and its brotli size (`.br`). Used by the first-load benchmark
 * (bench/firstLoad.ts) and the browser test of the login page's chunks (tests/browser/first-load.test.ts)
 * to tell which code a requested URL carries.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Rollup } from 'vite';
import { ROOT } from './serverProcess';

export interface ConsoleChunk {
  /** Path under the console directory, e.g. `assets/index-AbC123.js`. */
  fileName: string;
  isEntry: boolean;
  isDynamicEntry: boolean;
  /** Module ids relative to the repository root (`src/App.tsx`, `node_modules/recharts/...`). */
  modules: string[];
  /** Each module's rendered length in the chunk (characters after tree-shaking, before minifying). */
  moduleSizes: Record<string, number>;
  /** Bytes of the minified file, of its `.gz` copy and of its `.br` copy. */
  bytes: number;
  gzip: number;
  brotli: number;
}

export interface ConsoleBuild {
  dir: string;
  chunks: ConsoleChunk[];
  /** The chunk served at a URL path (`/assets/x.js`), if any. */
  chunkOf(urlPath: string): ConsoleChunk | undefined;
}

const size = (file: string) => (existsSync(file) ? statSync(file).size : 0);

/**
 * Builds the console into `outDir` (emptied first) and describes its chunks. A production build as
 * shipped, also under vitest: vitest sets `NODE_ENV=test`, with which Vite would bundle React's
 * development build (about 60 kB gzip more on the login page), so NODE_ENV is `production` for the build.
 */
export async function buildConsoleWithChunks(outDir: string): Promise<ConsoleBuild> {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  const result = await build({
    root: ROOT,
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  }).finally(() => {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  const rel = (id: string) => {
    const p = id.replace(/\\/g, '/').replace(/^\0/, '');
    const nm = p.lastIndexOf('/node_modules/');
    if (nm >= 0) return p.slice(nm + 1);
    return p.startsWith(`${ROOT.replace(/\\/g, '/')}/`) ? p.slice(ROOT.length + 1) : p;
  };
  const chunks = outputs
    .flatMap((o) => o.output)
    .filter((o): o is Rollup.OutputChunk => o.type === 'chunk')
    .map((c) => ({
      fileName: c.fileName,
      isEntry: c.isEntry,
      isDynamicEntry: c.isDynamicEntry,
      modules: c.moduleIds.map(rel),
      moduleSizes: Object.fromEntries(
        Object.entries(c.modules).map(([id, m]) => [rel(id), m.renderedLength]),
      ),
      bytes: size(join(outDir, c.fileName)),
      gzip: size(join(outDir, `${c.fileName}.gz`)) || size(join(outDir, c.fileName)),
      brotli: size(join(outDir, `${c.fileName}.br`)) || size(join(outDir, c.fileName)),
    }));
  const byFile = new Map(chunks.map((c) => [`/${c.fileName}`, c]));
  return { dir: outDir, chunks, chunkOf: (urlPath) => byFile.get(urlPath) };
}

/**
 * Code that the login page must not load, by module path: the blockchain screens (their lazy wrappers in
 * src/resources/blockchain/index.tsx aside), recharts and the dashboards' charts, the schema screens
 * that render the medicine (companies) and registry sections, the shell's layout, and react-admin.
 */
export const NOT_FOR_LOGIN: { what: string; test: (module: string) => boolean }[] = [
  {
    what: 'blockchain screens',
    test: (m) => m.startsWith('src/resources/blockchain/') && !/\/(index\.tsx|i18n(\.zh)?\.ts)$/.test(m),
  },
  {
    what: 'chart code (recharts, dashboards)',
    test: (m) => m.startsWith('node_modules/recharts/') || m.startsWith('src/layout/dashboard/'),
  },
  {
    what: 'medicine/company and registry screens (schema views)',
    test: (m) =>
      /^src\/schema-ui\/(views|kindMap|fields)\.tsx$/.test(m) ||
      m.startsWith('src/resources/artworks/ImagesInput'),
  },
  { what: 'the shell layout', test: (m) => m === 'src/layout/ShellLayout.tsx' },
  {
    what: 'react-admin UI components',
    test: (m) => m.startsWith('node_modules/ra-ui-materialui/') && !m.includes('/theme/'),
  },
];
