/**
 * The start-up steps that write (issue 32, "one door"), in the order server.ts runs them once the app is
 * ready. Each names its input and its audit actor; tests/api/doors.test.ts lists the doors from this
 * table, so a step added here without a case there fails that test:
 * - `migrations`: the schema and its data migrations (server/db/migrations, code reviewed, no operator
 *   input); they already ran while the app booted (server/plugins/app/db.ts), so here it is a check that
 *   none is pending (it applies nothing). Records a data migration stores get their base revision at
 *   their first audited write (server/db/audit.ts `ensureBaseRevision`);
 * - `accounts`: `admin` and `user` when missing, from ADMIN_PASSWORD / USER_PASSWORD (checked against the
 *   account schema's password rule, a ConfigError naming the variable otherwise), audited as `system`
 *   (server/plugins/app/auth.ts `ensureAccounts`);
 * - `seed`: the shipped Tate sample into an empty registry when SEED is not 0, validated row by row with
 *   the registry's create schemas, each record audited as `system` (server/import/seed.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from './config';
import { migrateToLatest } from './db/migrator';
import { ensureAccounts } from './plugins/app/auth';
import { seedIfEmpty } from './import/seed';

/** One start-up step that writes. */
export interface StartupStep {
  name: string;
  /** Its input, from outside the code (environment variables, shipped files), if any. */
  input: string;
  /**
   * Runs the step on a ready app. @param print one line for the operator (a generated password)
   * @throws ConfigError naming the setting at fault
   */
  run(app: FastifyInstance, config: AppConfig, print: (line: string) => void): Promise<unknown>;
}

/** The start-up steps that write, in order. */
export const STARTUP_STEPS: readonly StartupStep[] = [
  {
    name: 'migrations',
    input: 'none (server/db/migrations)',
    run: async (app) => {
      const applied = await migrateToLatest(app.db);
      if (applied.length) app.log.info({ applied }, 'migrations applied');
      return applied;
    },
  },
  {
    name: 'accounts',
    input: 'ADMIN_PASSWORD, USER_PASSWORD',
    run: (app, config, print) =>
      ensureAccounts(app.db, { admin: config.adminPassword, user: config.userPassword }, print),
  },
  {
    name: 'seed',
    input: 'SEED, server/db/seed/*.json.gz',
    run: async (app, config) =>
      config.seed
        ? seedIfEmpty(app.db, (m) => app.log.info(m), { onProgress: app.metrics.importProgress })
        : null,
  },
];

/** Runs every {@link STARTUP_STEPS} step in order. @throws what a step throws (ConfigError: the operator's) */
export async function runStartup(
  app: FastifyInstance,
  config: AppConfig,
  print: (line: string) => void,
): Promise<void> {
  for (const step of STARTUP_STEPS) await step.run(app, config, print);
}
