/**
 * The log side of C2SP tlog-witness (https://c2sp.org/tlog-witness; docs/witnesses.md section 11): after a
 * checkpoint is signed, the log sends `POST <witness URL>/add-checkpoint` to every configured witness with
 * the size it believes the witness holds (`old <size>`) and the RFC 6962 consistency proof from that size
 * (at most 63 hashes), retries with the witness's size when it answers 409 (`text/x.tlog.size`), checks
 * the returned cosignature lines against the witness's vkey (tlog-cosignature v1) and stores them
 * (`ledger_cosignature`); the public checkpoint then carries them after the log's own signature
 * (`cosignedNote`). Per witness and channel it keeps the size the witness reported, the size it cosigned,
 * and its refusals and errors (`ledger_witness_status`) for the dashboard (`GET /baas-api/witnesses`).
 *
 * Witnesses come from `LEDGER_WITNESSES` (`parseWitnessList`) and from the `witness` lines with a URL of
 * the policy file (`LEDGER_WITNESS_POLICY`, common/ledger/policy.ts). Pushing runs after each committed
 * block (`nudge`) and on a timer, one round at a time; on PostgreSQL only the orderer pushes.
 */
import type { Kysely } from 'kysely';
import { splitNote } from '../../common/ledger/note';
import { acceptCosignatures, formatAddCheckpoint, MAX_PROOF_LINES } from '../../common/ledger/witness';
import type { LedgerTables } from './tables';
import type { WitnessMemory } from './witnessMemory';
import type { ConfiguredWitness } from './witnessConfig';

export { parseWitnessList, withPolicyWitnesses, type ConfiguredWitness } from './witnessConfig';

/** Where the pusher reads checkpoints and proofs (the log's stored checkpoints and hashes). */
export interface CheckpointSource {
  channels(): Promise<{ id: number; name: string }[]>;
  /** The latest signed checkpoint of a channel: size in entries, root hash (hex), the signed note. */
  latest(channelId: number): Promise<{ size: number; rootHash: string; note: string } | undefined>;
  /** The RFC 6962 consistency proof from `oldSize` to `newSize` (0 < oldSize ≤ newSize), from stored hashes. */
  consistency(channelId: number, oldSize: number, newSize: number): Promise<Uint8Array[]>;
}

/** Options of the pusher. */
export interface PusherOptions {
  /** Per-request timeout, ms (default 10 s). */
  timeoutMs?: number;
  /** Whether this process should push now (PostgreSQL: only the orderer). */
  active?: () => boolean;
  log?: (msg: string, err?: unknown) => void;
  fetch?: typeof fetch;
  /** The witnesses' memory of the log (witnessMemory.ts): told of every cosignature and failure. */
  memory?: WitnessMemory;
  /**
   * Called when a witness refuses a checkpoint (422, a 409 naming the same or a larger size, or
   * another refusal): the log then asks the witness what it holds and checks its head against it.
   */
  onRefusal?: (channelId: number, w: ConfiguredWitness) => Promise<void>;
}

/** Pushes the latest checkpoints to the configured witnesses. */
export class WitnessPusher {
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Kysely<any>,
    readonly witnesses: ConfiguredWitness[],
    private readonly source: CheckpointSource,
    private readonly opts: PusherOptions = {},
  ) {}

  private get ldb(): Kysely<LedgerTables> {
    return this.db as Kysely<LedgerTables>;
  }

  /** Pushes every timer period (ms) until `stop`. */
  start(intervalMs: number): void {
    if (this.witnesses.length === 0 || this.timer) return;
    this.timer = setInterval(() => this.nudge(), intervalMs);
    this.timer.unref();
    this.nudge();
  }

  /** Stops the timer and waits for a round in flight. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Starts a round soon (coalesced: at most one round runs, one more is queued). Never rejects. */
  nudge(): void {
    void this.pushAll().catch((err) => this.opts.log?.('witness push failed', err));
  }

  /** One round over every channel and witness; resolves when it (and a queued one) is done. */
  async pushAll(): Promise<void> {
    if (this.witnesses.length === 0 || (this.opts.active && !this.opts.active())) return;
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        for (const ch of await this.source.channels()) {
          const cp = await this.source.latest(ch.id);
          if (!cp) continue;
          await Promise.all(this.witnesses.map((w) => this.pushOne(ch.id, w, cp)));
        }
      } while (this.again);
    })().finally(() => (this.running = undefined));
    return this.running;
  }

  private async status(channelId: number, w: ConfiguredWitness) {
    const row = await this.ldb
      .selectFrom('ledger_witness_status')
      .selectAll()
      .where('channelId', '=', channelId)
      .where('witness', '=', w.vkey.name)
      .executeTakeFirst();
    if (row) return row;
    const fresh = {
      channelId,
      witness: w.vkey.name,
      vkey: w.vkey.text,
      url: w.url,
      size: 0,
      cosignedSize: 0,
      cosignedAt: null,
      lastAttemptAt: null,
      lastError: null,
      refusals: 0,
      errors: 0,
    };
    await this.ldb.insertInto('ledger_witness_status').values(fresh).execute();
    return fresh;
  }

  private async update(
    channelId: number,
    w: ConfiguredWitness,
    set: Partial<LedgerTables['ledger_witness_status']>,
  ) {
    await this.ldb
      .updateTable('ledger_witness_status')
      .set({ ...set, vkey: w.vkey.text, url: w.url, lastAttemptAt: new Date().toISOString() })
      .where('channelId', '=', channelId)
      .where('witness', '=', w.vkey.name)
      .execute();
  }

  /** Sends the checkpoint to one witness, following its 409s (at most 3 tries). Never throws. */
  private async pushOne(
    channelId: number,
    w: ConfiguredWitness,
    cp: { size: number; rootHash: string; note: string },
  ): Promise<void> {
    const st = await this.status(channelId, w);
    if (st.cosignedSize === cp.size && (await this.hasCosignature(channelId, cp.size, w.vkey.name))) return;
    let old = st.size;
    for (let attempt = 0; attempt < 3; attempt++) {
      if (old > cp.size) {
        await this.update(channelId, w, {
          size: old,
          lastError: `the witness holds size ${old}, above this log's latest checkpoint ${cp.size}`,
          errors: st.errors + 1,
        });
        this.opts.log?.(`witness ${w.vkey.name} holds size ${old}, above checkpoint ${cp.size}`);
        // A witness ahead of the log: a rollback, if its checkpoint (signed by this log) says so.
        await this.opts
          .onRefusal?.(channelId, w)
          .catch((err) => this.opts.log?.('witness review failed', err));
        return;
      }
      const proof =
        old === 0 || old === cp.size ? [] : await this.source.consistency(channelId, old, cp.size);
      if (proof.length > MAX_PROOF_LINES) throw new Error(`consistency proof of ${proof.length} hashes`);
      let res: Response;
      let text: string;
      try {
        res = await (this.opts.fetch ?? fetch)(`${w.url}/add-checkpoint`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain; charset=utf-8' },
          body: formatAddCheckpoint({ oldSize: old, proof, note: cp.note }),
          signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
        });
        text = await res.text();
      } catch (err) {
        await this.update(channelId, w, {
          lastError: `unreachable: ${(err as Error).message}`,
          errors: st.errors + 1,
        });
        this.opts.memory?.failed(w, `unreachable at ${w.url}: ${(err as Error).message}`);
        return;
      }
      if (res.status === 409) {
        const m = /^(0|[1-9][0-9]*)\n$/.exec(text);
        if (!m) {
          await this.update(channelId, w, {
            lastError: `409 without a size: ${text.slice(0, 200)}`,
            errors: st.errors + 1,
          });
          return;
        }
        const held = Number(m[1]);
        if (held === old) {
          // The witness holds the size we sent and still conflicts: a same-size fork as C2SP tlog-witness
          // answered it before #280 (now 422). A refusal, not a retry.
          await this.refused(channelId, w, cp, st.refusals, `409: it holds ${held} entries, another tree`);
          return;
        }
        old = held;
        await this.update(channelId, w, { size: old });
        continue;
      }
      if (res.status >= 500) {
        await this.update(channelId, w, {
          lastError: `${res.status}: ${text.trim().slice(0, 500)}`,
          errors: st.errors + 1,
        });
        this.opts.memory?.failed(w, `answered ${res.status} to add-checkpoint`);
        return;
      }
      if (res.status !== 200) {
        await this.refused(channelId, w, cp, st.refusals, `${res.status}: ${text.trim().slice(0, 500)}`);
        return;
      }
      try {
        const got = await acceptCosignatures(cp.note, text, {
          name: w.vkey.name,
          publicKey: w.vkey.publicKey,
        });
        await this.ldb
          .insertInto('ledger_cosignature')
          .values({
            channelId,
            size: cp.size,
            witness: w.vkey.name,
            rootHash: cp.rootHash,
            line: got.lines[0],
            time: got.time,
          })
          .onConflict((oc) => oc.columns(['channelId', 'size', 'witness']).doNothing())
          .execute();
        await this.update(channelId, w, {
          size: cp.size,
          cosignedSize: cp.size,
          cosignedAt: new Date(got.time * 1000).toISOString(),
          lastError: null,
        });
        this.opts.memory?.reached(w);
        const origin = splitNote(cp.note).body.split('\n', 1)[0];
        this.opts.memory?.remember({
          witness: w.vkey.name,
          origin,
          size: cp.size,
          rootHash: cp.rootHash,
          note: cp.note + got.lines[0],
        });
      } catch (err) {
        await this.update(channelId, w, {
          lastError: `bad answer: ${(err as Error).message}`,
          errors: st.errors + 1,
        });
        this.opts.memory?.failed(w, `answered add-checkpoint with something that is not its cosignature`);
      }
      return;
    }
  }

  /** Records a refusal, logs it and lets the log check its head against what the witness holds. */
  private async refused(
    channelId: number,
    w: ConfiguredWitness,
    cp: { size: number },
    refusals: number,
    why: string,
  ): Promise<void> {
    await this.update(channelId, w, { lastError: why, refusals: refusals + 1 });
    this.opts.log?.(`witness ${w.vkey.name} refused checkpoint ${cp.size}: ${why}`);
    await this.opts.onRefusal?.(channelId, w).catch((err) => this.opts.log?.('witness review failed', err));
  }

  private async hasCosignature(channelId: number, size: number, witness: string): Promise<boolean> {
    return !!(await this.ldb
      .selectFrom('ledger_cosignature')
      .select('size')
      .where('channelId', '=', channelId)
      .where('size', '=', size)
      .where('witness', '=', witness)
      .executeTakeFirst());
  }
}

/**
 * The checkpoint note with the stored cosignatures of that checkpoint appended (signed-note: more
 * signature lines after the log's). Only lines stored for the same size and root hash are added.
 */
export async function cosignedNote(
  db: Kysely<any>,
  channelId: number,
  cp: { size: number; rootHash: string; note: string },
): Promise<string> {
  const rows = await (db as Kysely<LedgerTables>)
    .selectFrom('ledger_cosignature')
    .select(['line', 'rootHash', 'witness'])
    .where('channelId', '=', channelId)
    .where('size', '=', cp.size)
    .orderBy('witness')
    .execute();
  return (
    cp.note +
    rows
      .filter((r) => r.rootHash === cp.rootHash && !cp.note.includes(r.line))
      .map((r) => r.line)
      .join('')
  );
}

/** The sizes of a channel's checkpoints that carry at least `min` cosignatures, largest first (at most 1). */
export async function latestCosignedSize(
  db: Kysely<any>,
  channelId: number,
  min: number,
): Promise<number | undefined> {
  if (min <= 0) return undefined;
  const row = await (db as Kysely<LedgerTables>)
    .selectFrom('ledger_cosignature')
    .select(['size'])
    .where('channelId', '=', channelId)
    .groupBy('size')
    .having((eb) => eb.fn.countAll(), '>=', min)
    .orderBy('size', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.size;
}
