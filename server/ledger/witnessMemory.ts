/**
 * The log's memory outside the box it protects (issue 31, docs/witnesses.md section 11.3a): what the
 * policy's witnesses remember of each origin. The signer reads it before it signs, so deleting the
 * database's checkpoint rows and the key directory's state file is not enough to get a fork signed.
 *
 * - **Asking.** At start (before the signer signs anything) and after a witness refuses a checkpoint,
 *   the log asks each witness with a URL for the newest checkpoint it cosigned of each origin, with the
 *   C2SP tlog-witness monitoring call `GET <url>/<hex SHA-256 of the origin>/checkpoint`. An answer counts
 *   only when the note verifies with the log's own key under that origin (a witness cannot invent a
 *   checkpoint the log never signed) and carries a valid cosignature of that witness (tlog-cosignature
 *   v1); 404 means the witness holds nothing of that origin.
 * - **What they last returned.** Each cosignature the pusher receives (a 200 of add-checkpoint) is
 *   remembered here too.
 * - **Unreachable or garbage.** A witness that does not answer (network error, timeout, 5xx) or answers
 *   something that does not verify (garbage, another origin, another key) is recorded with one line of
 *   reason; the log goes on with what it last had and says so (`/readyz` degraded, metrics).
 */
import { createHash } from 'node:crypto';
import { splitNote, parseCheckpoint } from '../../common/ledger/note';
import { verifiedCosigners } from '../../common/ledger/witness';
import type { WitnessConfig } from './witnessConfig';
import type { ConfiguredWitness } from './witnessConfig';

/** A checkpoint a witness cosigned: size in entries, root hash (lowercase hex), the cosigned note. */
export interface WitnessedCheckpoint {
  witness: string;
  origin: string;
  size: number;
  rootHash: string;
  note: string;
  /** When the log learned it (ISO-8601). */
  learnedAt: string;
}

/** Whether a witness answered the last time it was asked, and why not. */
export interface WitnessReachability {
  witness: string;
  url: string;
  ok: boolean;
  /** One line: why the last question failed (unreachable, garbage, another origin). */
  reason?: string;
  /** ISO-8601 time of the last question. */
  at?: string;
}

/** Checks a note against the log's key for an origin: the signed (size, root hex), or undefined. */
export type LogNoteCheck = (
  origin: string,
  note: string,
) => Promise<{ size: number; rootHash: string } | undefined>;

/** Lowercase hex SHA-256 of an origin, as the tlog-witness monitoring path names a log. */
export function originHash(origin: string): string {
  return createHash('sha256').update(origin, 'utf8').digest('hex');
}

/** The witnesses' memory of the log, per witness and origin. */
export class WitnessMemory {
  private readonly known = new Map<string, WitnessedCheckpoint>();
  private readonly reach = new Map<string, WitnessReachability>();

  /** The witnesses to ask (those with a URL: LEDGER_WITNESSES and the policy's). */
  readonly witnesses: ConfiguredWitness[];

  constructor(
    /** The policy and the witnesses (witnessConfig.ts). */
    readonly config: WitnessConfig,
    private readonly opts: { timeoutMs?: number; fetch?: typeof fetch; log?: (msg: string) => void } = {},
  ) {
    this.witnesses = config.list;
  }

  private keyOf(witness: string, origin: string): string {
    return `${witness}\n${origin}`;
  }

  /**
   * Records a checkpoint a witness cosigned (its 200 answer, or its monitoring call), keeping the larger
   * size per witness and origin.
   */
  remember(cp: Omit<WitnessedCheckpoint, 'learnedAt'>): void {
    const k = this.keyOf(cp.witness, cp.origin);
    const old = this.known.get(k);
    if (!old || old.size <= cp.size) this.known.set(k, { ...cp, learnedAt: new Date().toISOString() });
  }

  /** Every remembered checkpoint of an origin, largest first. */
  checkpoints(origin: string): WitnessedCheckpoint[] {
    return [...this.known.values()].filter((c) => c.origin === origin).sort((a, b) => b.size - a.size);
  }

  /** Every remembered checkpoint of one witness, largest first. */
  checkpointsOf(witness: string): WitnessedCheckpoint[] {
    return [...this.known.values()].filter((c) => c.witness === witness).sort((a, b) => b.size - a.size);
  }

  /** The newest checkpoint any witness cosigned of an origin, or undefined. */
  newest(origin: string): WitnessedCheckpoint | undefined {
    return this.checkpoints(origin)[0];
  }

  /** The reachability of every witness asked so far. */
  reachability(): WitnessReachability[] {
    return this.witnesses.map(
      (w) => this.reach.get(w.vkey.name) ?? { witness: w.vkey.name, url: w.url, ok: true },
    );
  }

  /** The witnesses whose last question failed, with the reason. */
  unreachable(): WitnessReachability[] {
    return this.reachability().filter((r) => !r.ok);
  }

  private mark(w: ConfiguredWitness, reason?: string): void {
    const prev = this.reach.get(w.vkey.name);
    this.reach.set(w.vkey.name, {
      witness: w.vkey.name,
      url: w.url,
      ok: !reason,
      reason,
      at: new Date().toISOString(),
    });
    if (reason && prev?.reason !== reason) this.opts.log?.(`witness ${w.vkey.name}: ${reason}`);
  }

  /**
   * Asks every witness (concurrently) for its newest checkpoint of each origin. Never throws: a failure
   * is recorded as the witness's reachability.
   */
  async askAll(origins: string[], check: LogNoteCheck): Promise<void> {
    await Promise.all(this.witnesses.map((w) => this.ask(w, origins, check)));
  }

  /** Asks one witness for its newest checkpoint of each origin (see the module comment). Never throws. */
  async ask(w: ConfiguredWitness, origins: string[], check: LogNoteCheck): Promise<void> {
    let failure: string | undefined;
    for (const origin of origins) {
      const url = `${w.url}/${originHash(origin)}/checkpoint`;
      let status: number;
      let text: string;
      try {
        const res = await (this.opts.fetch ?? fetch)(url, {
          signal: AbortSignal.timeout(this.opts.timeoutMs ?? 5000),
        });
        status = res.status;
        text = await res.text();
      } catch (err) {
        failure = `unreachable at ${url}: ${(err as Error).message}`;
        break;
      }
      if (status === 404) continue;
      if (status !== 200) {
        failure = `answered ${status} to ${url}`;
        break;
      }
      const why = await this.accept(w, origin, text, check);
      if (why) {
        failure = why;
        break;
      }
    }
    this.mark(w, failure);
  }

  /** Accepts a monitoring answer; returns why it is refused, or undefined. */
  private async accept(
    w: ConfiguredWitness,
    origin: string,
    text: string,
    check: LogNoteCheck,
  ): Promise<string | undefined> {
    let claimed: string;
    try {
      claimed = parseCheckpoint(splitNote(text).body).origin;
    } catch {
      return `answered something that is not a checkpoint for ${origin}`;
    }
    if (claimed !== origin) return `answered a checkpoint of another origin (${claimed}) for ${origin}`;
    const signed = await check(origin, text);
    if (!signed) return `answered a checkpoint of ${origin} that this log's key did not sign`;
    const cosigners = await verifiedCosigners(text, [{ name: w.vkey.name, publicKey: w.vkey.publicKey }]);
    if (cosigners.length === 0) return `answered a checkpoint of ${origin} without its own valid cosignature`;
    this.remember({ witness: w.vkey.name, origin, size: signed.size, rootHash: signed.rootHash, note: text });
    return undefined;
  }

  /** Records a successful exchange (an add-checkpoint 200): the witness is reachable. */
  reached(w: ConfiguredWitness): void {
    this.mark(w);
  }

  /** Records a failed exchange with one line of reason (unreachable, or an answer that does not verify). */
  failed(w: ConfiguredWitness, reason: string): void {
    this.mark(w, reason);
  }
}
