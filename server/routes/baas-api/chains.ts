/**
 * `GET /baas-api/chains` (user, admin): the blockchain this server runs, as the product's "chains" table
 * shows a network (name, consensus, peer orgs, orderer count, peer count, TLS flag, status, version),
 * read from the running configuration and ledger state, never from constants standing in for them:
 * - `name`: the checkpoint signing key's name (`LEDGER_KEY_NAME`, the identity that signs the chain);
 * - `consensus`: `solo` (SQLite: this one process orders and commits, like Fabric's solo orderer) or
 *   `leader-election` (PostgreSQL: the processes sharing the database elect one block cutter through an
 *   advisory lock, server/ledger/orderer.ts);
 * - `peerOrgs`: the signing organisation and every witness that cosigned a checkpoint
 *   (`ledger_witness_status`, the log pushing to witnesses, docs/witnesses.md section 11);
 * - `ordererCount`: processes cutting blocks: 1 when the election has a holder, else 0 (none elected yet);
 * - `peerCount`: server processes keeping the ledger: 1 on SQLite; on PostgreSQL the sessions named
 *   `baas-ledger-<pid>-<instance>` in `pg_stat_activity` (each process's election connection);
 * - `tls`: whether this request reached the server over TLS (a TLS socket, or `X-Forwarded-Proto: https`
 *   from a proxy named by `TRUST_PROXY`);
 * - `status`: `running` while blocks are cut with nothing stuck (`pending` 0 or the cutter alive),
 *   `syncing` while transactions wait for a block; with the channel count, block height and transactions;
 * - `version`: the server's package version (package.json).
 * Answer: `{ list: [chain], total: 1 }` (one embedded network per server), as the other list calls.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import pkg from '../../../package.json' with { type: 'json' };
import { ok } from '../../plugins/app/envelope';
import { isPostgresUrl } from '../../db/connect';

export default async function chainsRoutes(app: FastifyInstance) {
  const db = app.db as unknown as Kysely<any>;
  const postgres = isPostgresUrl(app.config.databaseUrl);

  app.get(
    '/chains',
    {
      onRequest: app.requireRoles(['user']),
      schema: { querystring: { type: 'object', properties: {}, additionalProperties: false } },
    },
    async (req) => {
      const totals = await app.ledger.totals();
      const witnesses = (await db
        .selectFrom('ledger_witness_status')
        .select('witness as name')
        .where('cosignedSize', '>', 0)
        .distinct()
        .orderBy('witness')
        .execute()) as { name: string }[];
      const orgs = [app.config.ledgerKeyName, ...witnesses.map((w) => w.name)];
      let peerCount = 1;
      // The embedded ledger answers whether this process cuts blocks (server/ledger/embedded.ts).
      const local = app.ledger as unknown as { isOrderer?: () => boolean };
      let ordererCount = local.isOrderer?.() === false ? 0 : 1;
      if (postgres) {
        const { rows } = await sql<{ peers: number; orderers: number }>`
          select count(*)::int as peers,
                 count(*) filter (where pid in (select pid from pg_locks where locktype = 'advisory' and granted))::int as orderers
          from pg_stat_activity where application_name like 'baas-ledger-%'`.execute(db);
        peerCount = Math.max(1, Number(rows[0]?.peers ?? 0));
        ordererCount = Math.max(ordererCount, Number(rows[0]?.orderers ?? 0) > 0 ? 1 : 0);
      }
      const chain = {
        name: app.config.ledgerKeyName,
        consensus: postgres ? 'leader-election' : 'solo',
        peerOrgs: [...new Set(orgs)],
        ordererCount,
        peerCount,
        tls: req.protocol === 'https',
        status: app.checkpoints.alarms.size > 0 ? 'halted' : totals.pending > 0 ? 'syncing' : 'running',
        alarms: [...app.checkpoints.alarms.values()],
        version: pkg.version,
        channels: totals.channels,
        blocks: totals.blocks,
        transactions: totals.transactions,
      };
      return ok({ list: [chain], total: 1 });
    },
  );
}
