import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { apiPrefixesOf } from './common/apiPrefixes.ts';

/**
 * The API's path prefixes for the dev proxy, from the schemas' JSON files (common/apiPrefixes.ts, the rule
 * the server uses too), so a new section's prefix needs no line here.
 */
function apiPrefixes(): string[] {
  const endpointMaps = readdirSync('schemas')
    .filter((n) => n.endsWith('.schema.json'))
    .map((f) => JSON.parse(readFileSync(`schemas/${f}`, 'utf8'))['x-endpoints'] ?? {});
  return apiPrefixesOf(endpointMaps).map((p) => p.replace(/\/$/, ''));
}

/**
 * Vite config for the console. In dev, API calls are proxied to the Fastify server (PORT, default 8080).
 * The build writes a brotli (`.br`) and a gzip (`.gz`) copy beside each text asset
 * (vite-plugin-compression2, default quality: brotli 11, gzip 9), served by @fastify/static's
 * `preCompressed` (server/plugins/external/static.ts). Vite's default chunk-size warning limit (500 kB)
 * stands: the console is split per section (src/shell/lazy.tsx), no chunk reaches it.
 *
 * `object.entries` and `hasown` (polyfills that node-polyglot, under ra-i18n-polyglot, requires) resolve
 * to nolyfill's `@nolyfill/object.entries` and `@nolyfill/hasown`, which answer the browser's own
 * `Object.entries` and `Object.hasOwn`: the shims pulled some 20 modules (get-intrinsic, call-bind,
 * define-properties, function-bind...) into the login page's chunk, 6 kB gzip, for browsers that all
 * have both (Vite's default targets, baseline widely available).
 *
 * Two aliases keep the dashboard's first load (bench/firstLoad.ts, "dashboard after login") small:
 * - `lodash/<fn>` (ra-core and ra-ui-materialui import lodash per function: get, isEqual, debounce, set,
 *   merge, pick, ...) resolves to `es-toolkit/compat/<fn>`, es-toolkit's drop-in lodash replacement
 *   (checked against lodash's own test suite), which recharts already brings for its own helpers: one
 *   library instead of two in the same load, 4.8 kB gzip less. A function es-toolkit/compat lacks fails
 *   the build (unresolved import), never at run time.
 * - `victory-vendor/d3-scale` (recharts' namespace import of every d3 scale) resolves to
 *   src/charts/d3Scale.ts, the scales the charts use (band, point, linear, ordinal): 7.8 kB gzip less in
 *   the chart chunk. tests/unit/chartScales.test.ts checks that every `scale=` a chart names is there.
 */
const target = `http://127.0.0.1:${process.env.PORT ?? 8080}`;
export default defineConfig({
  plugins: [
    react(),
    compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024, logLevel: 'silent' }),
  ],
  resolve: {
    alias: [
      { find: /^object\.entries$/, replacement: '@nolyfill/object.entries' },
      { find: /^hasown$/, replacement: '@nolyfill/hasown' },
      { find: /^lodash\/(\w+)(\.js)?$/, replacement: 'es-toolkit/compat/$1' },
      {
        find: /^victory-vendor\/d3-scale$/,
        replacement: fileURLToPath(new URL('./src/charts/d3Scale.ts', import.meta.url)),
      },
    ],
  },
  server: { proxy: Object.fromEntries(apiPrefixes().map((p) => [p, target])) },
  build: { outDir: 'dist' },
});
