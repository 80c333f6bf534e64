/**
 * Liveness and readiness for a supervisor or a load balancer (issue 20), without a token:
 * - `GET /healthz`: the process is up and its event loop answers → 200 `{code: 0, data: {status: "ok"}}`;
 * - `GET /readyz`: every check passes → 200 with `data.checks`; else 503 (code 503) whose `msg` names
 *   each failing check and its reason, `data.checks` the detail. Checks, each with a time limit of
 *   {@link CHECK_TIMEOUT_MS}:
 *   - `database`: the database answers `SELECT 1`;
 *   - `migrations`: every migration of server/db/migrations is applied (Kysely's migration table);
 *   - `signer`: the ledger's checkpoint key signs, and the signature verifies with its public key
 *     (Ed25519, RFC 8032), and the ledger accepts work (not closing);
 *   - `orderer` (PostgreSQL only): the orderer role is known, this process holds the advisory lock or
 *     another session does (pg_locks; server/ledger/orderer.ts), so blocks are being cut;
 *   - `ledger`: no channel is halted by a ledger alarm (a rollback or fork against the last signed or
 *     cosigned checkpoint: server/ledger/checkpoints.ts); the reason names the channel and both sizes;
 *   - `witnesses`: every configured witness answered the last time the log asked or pushed
 *     (server/ledger/witnessMemory.ts). One that did not makes the answer **degraded**: still 200 (the
 *     log goes on with what it last had), `data.status: "degraded"`, the check's reason naming it.
 */
import { createPublicKey, sign, verify } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { Migrator, sql } from 'kysely';
import { Codes } from '../../../common/envelope';
import { languageOf, msg, renderMessage } from '../../../common/messages/index';
import { migrations } from '../../db/migrations/index';
import { ORDERER_LOCK_KEY } from '../../ledger/orderer';
import { ok } from './envelope';

/** Longest a readiness check may take before it counts as failed, ms. */
export const CHECK_TIMEOUT_MS = 3000;

/** Whether this process cuts the blocks (the embedded ledger's orderer role; true without an election). */
export function isOrderer(app: FastifyInstance): boolean {
  return (app.ledger as Partial<{ isOrderer(): boolean }>).isOrderer?.() ?? true;
}

/** One readiness check's outcome. */
export interface CheckResult {
  ok: boolean;
  /** Why it failed (English, for the operator); absent when ok. */
  reason?: string;
  /** Passed, but in a degraded state (why, English); the answer is still 200. */
  degraded?: string;
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<T>((_, fail) => {
      timer = setTimeout(() => fail(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** The readiness checks of `app` by name (see the module comment). */
export function readinessChecks(app: FastifyInstance): Record<string, () => Promise<CheckResult>> {
  const checks: Record<string, () => Promise<CheckResult>> = {
    database: async () => {
      await sql`select 1 as one`.execute(app.db);
      return { ok: true };
    },
    migrations: async () => {
      const known = await new Migrator({
        db: app.db,
        provider: { getMigrations: async () => migrations },
      }).getMigrations();
      const missing = known.filter((m) => !m.executedAt).map((m) => m.name);
      return missing.length ? { ok: false, reason: `not applied: ${missing.join(', ')}` } : { ok: true };
    },
    signer: async () => {
      const key = app.checkpoints.key;
      const probe = Buffer.from(`readyz ${Date.now()}`);
      const publicKey = createPublicKey({
        key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(key.publicKey).toString('base64url') },
        format: 'jwk',
      });
      if (!verify(null, probe, publicKey, sign(null, probe, key.privateKey)))
        return { ok: false, reason: 'the signing key does not match its public key' };
      return { ok: true };
    },
  };
  checks.ledger = async () => {
    const alarms = [...app.checkpoints.alarms.values()];
    if (!alarms.length) return { ok: true };
    return {
      ok: false,
      reason: alarms
        .map(
          (a) =>
            `ledger halted on ${a.channel} (${a.kind}${a.witness ? `, witness ${a.witness}` : ''}): signed ${a.signed.size} entries, stored ${a.head.size}: ${a.reason}`,
        )
        .join('; '),
    };
  };
  checks.witnesses = async () => {
    const down = app.witnessMemory.unreachable();
    if (!down.length) return { ok: true };
    return { ok: true, degraded: down.map((d) => `witness ${d.witness}: ${d.reason}`).join('; ') };
  };
  if (app.dialect === 'postgres')
    checks.orderer = async () => {
      if (isOrderer(app)) return { ok: true };
      const key = BigInt(ORDERER_LOCK_KEY);
      const { rows } = await sql<{ n: string | number }>`
        select count(*) as n from pg_locks
        where locktype = 'advisory' and granted and objsubid = 1
          and classid = ${Number(key >> 32n)} and objid = ${Number(key & 0xffffffffn)}`.execute(app.db);
      return Number(rows[0]?.n ?? 0) > 0
        ? { ok: true }
        : { ok: false, reason: 'no process holds the orderer lock yet' };
    };
  return checks;
}

/** Runs every check (concurrently, each time-limited); a thrown error is a failure with its message. */
export async function runChecks(
  checks: Record<string, () => Promise<CheckResult>>,
): Promise<Record<string, CheckResult>> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      try {
        return [name, await withTimeout(check(), CHECK_TIMEOUT_MS)] as const;
      } catch (e) {
        return [name, { ok: false, reason: (e as Error).message }] as const;
      }
    }),
  );
  return Object.fromEntries(entries);
}

export default fp(
  async function health(app: FastifyInstance) {
    const checks = readinessChecks(app);
    const doc = (summary: string) => ({ schema: { tags: ['operations'], summary } });
    app.get('/healthz', doc('Liveness: the process is up'), async () => ok({ status: 'ok' }));
    app.get(
      '/readyz',
      doc(
        'Readiness: database, migrations, signer, orderer role, ledger alarms (503 naming what fails); witnesses (degraded)',
      ),
      async (request, reply) => {
        const results = await runChecks(checks);
        const failed = Object.entries(results).filter(([, r]) => !r.ok);
        const degraded = Object.values(results).some((r) => r.degraded);
        if (!failed.length) return ok({ status: degraded ? 'degraded' : 'ready', checks: results });
        const message = msg('health.notReady', {
          reasons: failed.map(([name, r]) => `${name}: ${r.reason}`).join('; '),
        });
        return reply.status(503).send({
          code: Codes.UNAVAILABLE,
          msg: renderMessage(languageOf(request.headers['accept-language']), message),
          data: { status: 'unavailable', checks: results },
          ...message,
        });
      },
    );
  },
  { name: 'health', dependencies: ['ledger'] },
);
