import { readdirSync, readFileSync } from 'node:fs';
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
    ],
  },
  server: { proxy: Object.fromEntries(apiPrefixes().map((p) => [p, target])) },
  build: { outDir: 'dist' },
});
