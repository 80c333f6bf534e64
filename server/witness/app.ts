/**
 * Our witness as an HTTP service (C2SP tlog-witness, https://c2sp.org/tlog-witness), a small Fastify app
 * independent of the registry's server: it needs no account on any log, only the logs' verifier keys.
 *
 * - `POST /add-checkpoint`, body `old <size>\n` + consistency proof lines + `\n` + signed checkpoint
 *   (common/ledger/witness.ts). Answers, in the spec's order:
 *   400 malformed body or checkpoint, or old size above the checkpoint's size;
 *   404 unknown origin (no configured log key has it as key name);
 *   403 no signature of a trusted key for the origin, or one that fails to verify;
 *   409 old size differs from the size of the latest checkpoint it cosigned for the origin (0 if none):
 *       body `<size>\n`, content type `text/x.tlog.size`;
 *   422 a size-0 checkpoint without the empty tree's hash, a proof with old size 0, a consistency proof
 *       (RFC 6962 section 2.1.2) that does not verify, or the same size with another root hash (the spec
 *       after C2SP #280; 409 before it: docs/witnesses.md section 11.1);
 *   200 the cosignature line `— <witness name> base64(key ID ‖ time ‖ signature)\n` (tlog-cosignature
 *       v1), after the new checkpoint is stored (WitnessStore.advance, atomic).
 *   Error bodies are one line of text saying why. Refusals of a known, validly signed log are kept.
 * - `GET /<hex SHA-256 of origin>/checkpoint`: the latest checkpoint it cosigned for that log, with the
 *   log's signature and its own cosignature (the spec's monitoring call); 404 when none.
 * - `GET /`: `{name, vkey, logs: [{origin, size, rootHash, updatedAt, refusals}]}` as JSON, for operators.
 */
import { createHash } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { parseCheckpoint, splitNote, verifyCheckpointNote, type Checkpoint } from '../../common/ledger/note';
import { parseAddCheckpoint, type AddCheckpoint, type Vkey } from '../../common/ledger/witness';
import { checkConsistencyProof, EMPTY_TREE_HASH } from './consistency';
import { cosign, type CosignerKey } from './key';
import type { WitnessStore } from './store';

/** What the witness app needs. */
export interface WitnessOptions {
  key: CosignerKey;
  store: WitnessStore;
  /** The logs it witnesses: note-signer vkeys whose key name is the log's origin. */
  logs: Vkey[];
  /** Fastify's logger option (default off). */
  logger?: boolean | object;
  /** The clock, Unix seconds (tests). */
  now?: () => number;
}

/** Largest request body, bytes: 63 proof lines and a checkpoint with a few signatures fit many times. */
const BODY_LIMIT = 64 * 1024;

class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Keep the request as evidence (a known log, validly signed). */
    readonly evidence = false,
  ) {
    super(message);
  }
}

/** Builds the witness app (not listening). */
export function buildWitnessApp(o: WitnessOptions): FastifyInstance {
  const app = Fastify({ logger: o.logger ?? false, bodyLimit: BODY_LIMIT });
  const now = o.now ?? (() => Math.floor(Date.now() / 1000));
  // The body is text whatever the client calls it (the spec names no content type).
  app.addHook('onRequest', async (req) => {
    if (!req.headers['content-type']) req.headers['content-type'] = 'text/plain';
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  const text = (reply: FastifyReply, status: number, body: string, type = 'text/plain; charset=utf-8') =>
    reply.code(status).header('content-type', type).send(body);

  app.post('/add-checkpoint', async (req, reply) => {
    const body = typeof req.body === 'string' ? req.body : '';
    let origin: string | undefined;
    try {
      let r: AddCheckpoint;
      let cp: Checkpoint;
      try {
        r = parseAddCheckpoint(body);
        cp = parseCheckpoint(splitNote(r.note).body);
      } catch (err) {
        throw new Refused(400, `malformed request: ${(err as Error).message}`);
      }
      const keys = o.logs.filter((l) => l.name === cp.origin);
      if (keys.length === 0) throw new Refused(404, `unknown log origin "${cp.origin}"`);
      await checkLogSignature(r.note, keys);
      origin = cp.origin;
      if (r.oldSize > cp.size)
        throw new Refused(400, `old size ${r.oldSize} is above the checkpoint size ${cp.size}`, true);
      if (cp.size === 0 && cp.rootHash !== EMPTY_TREE_HASH)
        throw new Refused(422, 'a checkpoint of size 0 must carry the hash of the empty tree', true);
      const cur = o.store.get(cp.origin);
      const curSize = cur?.size ?? 0;
      if (r.oldSize !== curSize) return text(reply, 409, `${curSize}\n`, 'text/x.tlog.size');
      if (r.oldSize === 0 && r.proof.length > 0)
        throw new Refused(422, 'old size 0 takes an empty consistency proof', true);
      if (cur && cur.size === cp.size && cur.rootHash !== cp.rootHash)
        throw new Refused(422, `another root hash at size ${cp.size} than the one cosigned`, true);
      if (cur && cur.size < cp.size) {
        const check = checkConsistencyProof(r.proof, cur.size, cur.rootHash, cp.size, cp.rootHash);
        if (!check.ok)
          throw new Refused(
            422,
            `the consistency proof from ${cur.size} to ${cp.size} fails: ${check.message}`,
            true,
          );
      }
      const cosignature = cosign(o.key, splitNote(r.note).body, now());
      const stored = o.store.advance(cur && { size: cur.size, rootHash: cur.rootHash }, {
        origin: cp.origin,
        size: cp.size,
        rootHash: cp.rootHash,
        note: r.note + cosignature,
      });
      if (!stored) return text(reply, 409, `${o.store.get(cp.origin)?.size ?? 0}\n`, 'text/x.tlog.size');
      return text(reply, 200, cosignature);
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      if (err.evidence && origin) o.store.refuse({ origin, status: err.status, reason: err.message, body });
      return text(reply, err.status, `${err.message}\n`);
    }
  });

  app.get<{ Params: { hash: string } }>('/:hash/checkpoint', async (req, reply) => {
    const log = o.logs.find((l) => originHash(l.name) === req.params.hash);
    const state = log && o.store.get(log.name);
    if (!state) return text(reply, 404, 'no checkpoint cosigned for that origin hash\n');
    // Stored as received plus the cosignature add-checkpoint answered.
    return text(reply, 200, state.note);
  });

  app.get('/', async () => ({
    name: o.key.name,
    vkey: o.key.vkey,
    logs: o.logs.map((l) => {
      const s = o.store.get(l.name);
      return {
        origin: l.name,
        vkey: l.text,
        size: s?.size ?? 0,
        rootHash: s?.rootHash ?? null,
        updatedAt: s?.updatedAt ?? null,
        refusals: o.store.refusals(l.name, 1000).length,
      };
    }),
  }));

  return app;
}

/** Lowercase hex SHA-256 of an origin (the monitoring path, tlog-witness). */
export function originHash(origin: string): string {
  return createHash('sha256').update(origin).digest('hex');
}

/**
 * 403 unless some trusted key signed the note and no trusted key's signature fails (signed-note: a
 * signature line matching a known key name and ID that does not verify makes the note malformed).
 */
async function checkLogSignature(note: string, keys: Vkey[]): Promise<void> {
  const lines = splitNote(note).signatures;
  let good = 0;
  for (const k of keys) {
    if (!lines.some((s) => s.name === k.name && s.keyId === k.keyId)) continue;
    const v = await verifyCheckpointNote(note, { name: k.name, publicKey: k.publicKey });
    if (!v.ok) throw new Refused(403, `the signature of ${k.name} does not verify`);
    good++;
  }
  if (good === 0) throw new Refused(403, 'no signature of a trusted key of that log');
}
