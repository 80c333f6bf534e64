/**
 * Timeouts of many waiting callers with one timer per distinct duration instead of one `setTimeout`
 * per call (issue 19 item 10: a timer per submitted transaction cost about 5 µs of the ledger's hot
 * path). Deadlines of one duration are added in clock order, so each duration's lane is a queue in
 * insertion order (a `Set`, O(1) to cancel) and its one timer waits for the lane's oldest deadline.
 * A callback runs at or after its deadline (Date.now() milliseconds), never before, and never after it
 * was cancelled; the timers keep the process alive as a plain `setTimeout` would.
 */

/** One registered deadline (the handle `cancel` takes). */
export interface Deadline {
  readonly at: number;
  readonly fire: () => void;
  readonly lane: Lane;
}

interface Lane {
  readonly ms: number;
  readonly entries: Set<Deadline>;
  timer: NodeJS.Timeout | undefined;
}

/** Deadlines grouped by duration, one timer per duration with pending deadlines. */
export class Deadlines {
  private readonly lanes = new Map<number, Lane>();

  /** Runs `fire` once `ms` milliseconds have passed, unless cancelled first. */
  add(ms: number, fire: () => void): Deadline {
    let lane = this.lanes.get(ms);
    if (!lane) {
      lane = { ms, entries: new Set(), timer: undefined };
      this.lanes.set(ms, lane);
    }
    const d: Deadline = { at: Date.now() + ms, fire, lane };
    lane.entries.add(d);
    if (!lane.timer) this.arm(lane);
    return d;
  }

  /** Forgets a deadline (answered in time); a no-op when it already fired or was cancelled. */
  cancel(d: Deadline): void {
    const { lane } = d;
    if (!lane.entries.delete(d) || lane.entries.size > 0) return;
    if (lane.timer) clearTimeout(lane.timer);
    lane.timer = undefined;
    if (this.lanes.get(lane.ms) === lane) this.lanes.delete(lane.ms);
  }

  /** Arms the lane's timer for its oldest deadline, or drops the lane when it is empty. */
  private arm(lane: Lane): void {
    const first = lane.entries.values().next();
    if (first.done) {
      lane.timer = undefined;
      if (this.lanes.get(lane.ms) === lane) this.lanes.delete(lane.ms);
      return;
    }
    lane.timer = setTimeout(() => this.sweep(lane), Math.max(0, first.value.at - Date.now()));
  }

  /** Fires the lane's due deadlines in order, then re-arms for the next one. */
  private sweep(lane: Lane): void {
    lane.timer = undefined;
    const now = Date.now();
    for (const d of lane.entries) {
      if (d.at > now) break;
      lane.entries.delete(d);
      d.fire();
    }
    if (!lane.timer) this.arm(lane);
  }
}
