/**
 * The layers of the server and the console, checked by dependency-cruiser (`npm run depcruise`, part of
 * scripts/test-all.sh); drawn in docs/architecture.md. Imports point one way:
 *   routes (server/routes, server/app.ts, server/server.ts)
 *     → kernel and plugins (kernel/server, kernel/hooks, server/plugins)
 *       → storage and ledger (server/storage, server/ledger, server/imageCache, server/import)
 *         → db (server/db)
 * Every layer may use the shared code below all of them: common/, kernel/dialect/ (the dialect, also the
 * console's), server/errors.ts and server/config.ts. The kernel's repositories take their hooks from the
 * caller (kernel/hooks is written on top of kernel/server). The console (src/) never imports server code,
 * the shared code imports neither the server nor the console, and codegen does not import the console.
 * Type-only imports count (tsPreCompilationDeps). Rule set: https://github.com/sverweij/dependency-cruiser
 */
const ROUTES = '^server/(routes/|app\\.ts$|server\\.ts$)';
const KERNEL_PLUGINS = '^(kernel/server|kernel/hooks|server/plugins)/';
const STORAGE_LEDGER = '^server/(storage|ledger|imageCache|import)/';
const DB = '^server/db/';
const SERVER_CODE = '^(server|kernel/server|kernel/hooks)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'db-imports-upward',
      comment: 'server/db is the lowest layer: it imports no storage, ledger, kernel, plugin or route.',
      severity: 'error',
      from: { path: DB },
      to: { path: [STORAGE_LEDGER, KERNEL_PLUGINS, ROUTES] },
    },
    {
      name: 'storage-ledger-imports-upward',
      comment: 'Storage and the ledger import only db and the shared code: inject what they need from above.',
      severity: 'error',
      from: { path: STORAGE_LEDGER },
      to: { path: [KERNEL_PLUGINS, ROUTES] },
    },
    {
      name: 'kernel-plugins-import-routes',
      comment: 'Nothing below the routes imports a route.',
      severity: 'error',
      from: { path: KERNEL_PLUGINS },
      to: { path: ROUTES },
    },
    {
      name: 'kernel-imports-hooks',
      comment: 'The kernel takes the per-resource hooks as an option (kernel/server/resources.ts).',
      severity: 'error',
      from: { path: '^kernel/server/' },
      to: { path: '^kernel/hooks/' },
    },
    {
      name: 'console-imports-server',
      comment:
        'The console (src/) never imports server code: shared code lives in common/ or kernel/dialect/.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: SERVER_CODE },
    },
    {
      name: 'shared-imports-server-or-console',
      comment: 'common/ and kernel/dialect/ are loaded by both sides: they import neither (their tests may).',
      severity: 'error',
      from: { path: '^(common|kernel/dialect)/', pathNot: '\\.test\\.tsx?$' },
      to: { path: [SERVER_CODE, '^src/', '^scripts/'] },
    },
    {
      name: 'codegen-imports-console',
      comment:
        'Codegen reads the schemas through kernel/dialect, never the console. (scripts/codegen/screens.ts, ' +
        'the screens document, describes the console and reads its route tree: it is the one exception.)',
      severity: 'error',
      from: { path: '^scripts/(codegen\\.ts$|codegen/)', pathNot: '^scripts/codegen/screens\\.ts$' },
      to: { path: '^src/' },
    },
    {
      name: 'no-circular',
      comment:
        'No import cycle in the server, the kernel, the shared code or the scripts (within a layer either). ' +
        "The console's views render each other (kindMap ↔ fields ↔ files, the route tree ↔ resource routes): " +
        'cycles inside src/ are not checked.',
      severity: 'error',
      from: { path: '^(server|kernel|common|scripts)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|server/dist|data|coverage|\\.tmp)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};
