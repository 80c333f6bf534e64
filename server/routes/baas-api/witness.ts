/**
 * Witnesses on the console's side (docs/witnesses.md section 11). Witnesses no longer call the log: the log
 * sends its checkpoints to them (C2SP tlog-witness, server/ledger/witnessPush.ts), so there is no
 * cosign call and no witness needs an account.
 * - `GET /baas-api/witnesses` (role user): per configured witness and channel `{witness, vkey, url,
 *   channel, size (what the witness last reported), cosignedSize, cosignedAt, height (the channel's
 *   latest checkpoint size, entries), lag (height − cosignedSize), refusals, errors, lastError,
 *   lastAttemptAt}`, and the policy's quorum (`policy: {quorum, witnesses} | null`).
 * - `GET /baas-api/public/witnesses` (no login, rate-limited as the other public calls): `{policy (the
 *   tlog-policy text, or null), witnesses: [{name, vkey}]}`, what a verifier needs to count cosignatures.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { latestCheckpoint } from '../../ledger/checkpoints';
import type { LedgerTables } from '../../ledger/tables';
import { ok } from '../../plugins/app/envelope';
import { publicRouteConfig } from './publicShared';

export default async function witnessRoutes(app: FastifyInstance) {
  const db = app.db as unknown as Kysely<LedgerTables>;

  app.get(
    '/public/witnesses',
    {
      config: publicRouteConfig(app),
      schema: { querystring: { type: 'object', properties: {}, additionalProperties: false } },
    },
    async () =>
      ok({
        policy: app.witnesses.policy?.text ?? null,
        witnesses: app.witnesses.list.map((w) => ({ name: w.vkey.name, vkey: w.vkey.text })),
      }),
  );

  app.get(
    '/witnesses',
    {
      onRequest: app.requireRoles(['user']),
      schema: { querystring: { type: 'object', properties: {}, additionalProperties: false } },
    },
    async () => {
      const channels = await db.selectFrom('ledger_channel').select(['id', 'name']).orderBy('id').execute();
      const rows = await db.selectFrom('ledger_witness_status').selectAll().execute();
      const list = [];
      for (const ch of channels) {
        const height = (await latestCheckpoint(db, ch.id))?.size ?? 0;
        for (const w of app.witnesses.list) {
          const r = rows.find((x) => x.channelId === ch.id && x.witness === w.vkey.name);
          list.push({
            witness: w.vkey.name,
            vkey: w.vkey.text,
            url: w.url,
            channel: ch.name,
            size: r?.size ?? 0,
            cosignedSize: r?.cosignedSize ?? 0,
            cosignedAt: r?.cosignedAt ?? null,
            height,
            lag: height - (r?.cosignedSize ?? 0),
            refusals: r?.refusals ?? 0,
            errors: r?.errors ?? 0,
            lastError: r?.lastError ?? null,
            lastAttemptAt: r?.lastAttemptAt ?? null,
          });
        }
      }
      const p = app.witnesses.policy;
      return ok({
        list,
        total: list.length,
        policy: p ? { quorum: p.quorum, witnesses: p.witnesses.map((w) => w.vkey.name) } : null,
      });
    },
  );
}
