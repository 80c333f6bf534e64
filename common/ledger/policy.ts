/**
 * Witness policies in the C2SP `tlog-policy` text form (https://c2sp.org/tlog-policy), browser-safe:
 *
 * ```
 * log <vkey> [<url>]                 a log (its key name is its origin); any number
 * witness <name> <vkey> [<url>]      a witness (cosigner vkey, type 0x04); the URL is its submission prefix
 * group <name> all|any|<k> <name>... k of the members (witnesses or earlier groups) must have cosigned
 * quorum <name>|none                 exactly one: the witness or group that must have cosigned
 * ```
 *
 * Lines are split on spaces and tabs; empty lines and `#` comments are ignored; a name must be defined
 * before a group or the quorum refers to it; each name is a member of one group at most once; duplicate
 * log or witness keys are refused. `evaluatePolicy` says whether a set of cosigners satisfies the quorum,
 * and how many of the policy's witnesses cosigned ("witnessed by k of n").
 */
import { COSIGNATURE_TYPE, ED25519_TYPE } from './note';
import { toHex } from './hex';
import { parseVkey, type KnownWitness, type Vkey } from './witness';

/** A witness of a policy. */
export interface PolicyWitness {
  name: string;
  vkey: Vkey;
  url?: string;
}

/** A group: at least `k` of `members` (witness or group names). */
export interface PolicyGroup {
  name: string;
  k: number;
  members: string[];
}

/** A parsed policy. */
export interface Policy {
  logs: { vkey: Vkey; url?: string }[];
  witnesses: PolicyWitness[];
  groups: PolicyGroup[];
  /** The witness or group name the quorum requires, or `none`. */
  quorum: string;
  /** The policy text as given. */
  text: string;
}

/** A policy line error: the 1-based line number and what is wrong. */
export class PolicyError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`policy line ${line}: ${message}`);
  }
}

/** Parses a tlog-policy text. @throws PolicyError naming the line. */
export async function parsePolicy(text: string): Promise<Policy> {
  const policy: Policy = { logs: [], witnesses: [], groups: [], quorum: '', text };
  const names = new Set<string>();
  const keys = new Set<string>();
  let quorumLine = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    const raw = lines[i];
    // eslint-disable-next-line no-control-regex
    if (/[\x00-\x08\x0b-\x1f\x7f]/.test(raw.replace(/\r$/, '')))
      throw new PolicyError(n, 'control character');
    const words = raw
      .replace(/\r$/, '')
      .split(/[ \t]+/)
      .filter(Boolean);
    if (words.length === 0 || words[0].startsWith('#')) continue;
    const [kw, ...args] = words;
    const vkeyOf = async (t: string, type: number) => {
      try {
        const v = await parseVkey(t, [type]);
        const id = toHex(v.publicKey);
        if (keys.has(id)) throw new Error('the same public key is listed twice');
        keys.add(id);
        return v;
      } catch (err) {
        throw new PolicyError(n, (err as Error).message);
      }
    };
    if (kw === 'log') {
      if (args.length < 1 || args.length > 2) throw new PolicyError(n, 'expected "log <vkey> [<url>]"');
      policy.logs.push({ vkey: await vkeyOf(args[0], ED25519_TYPE), url: args[1] });
    } else if (kw === 'witness') {
      if (args.length < 2 || args.length > 3)
        throw new PolicyError(n, 'expected "witness <name> <vkey> [<url>]"');
      if (names.has(args[0]) || args[0] === 'none')
        throw new PolicyError(n, `name "${args[0]}" is already defined`);
      names.add(args[0]);
      policy.witnesses.push({ name: args[0], vkey: await vkeyOf(args[1], COSIGNATURE_TYPE), url: args[2] });
    } else if (kw === 'group') {
      if (args.length < 3) throw new PolicyError(n, 'expected "group <name> all|any|<k> <member>..."');
      const [name, threshold, ...members] = args;
      if (names.has(name) || name === 'none') throw new PolicyError(n, `name "${name}" is already defined`);
      for (const m of members)
        if (!names.has(m)) throw new PolicyError(n, `member "${m}" is not defined on an earlier line`);
      if (new Set(members).size !== members.length) throw new PolicyError(n, 'a member is listed twice');
      let k: number;
      if (threshold === 'all') k = members.length;
      else if (threshold === 'any') k = 1;
      else if (/^[1-9][0-9]*$/.test(threshold) && Number(threshold) <= members.length) k = Number(threshold);
      else throw new PolicyError(n, `threshold "${threshold}" must be all, any or 1..${members.length}`);
      names.add(name);
      policy.groups.push({ name, k, members });
    } else if (kw === 'quorum') {
      if (args.length !== 1) throw new PolicyError(n, 'expected "quorum <name>"');
      if (quorumLine) throw new PolicyError(n, `a second quorum line (the first is line ${quorumLine})`);
      if (args[0] !== 'none' && !names.has(args[0]))
        throw new PolicyError(n, `quorum "${args[0]}" is not defined on an earlier line`);
      policy.quorum = args[0];
      quorumLine = n;
    } else throw new PolicyError(n, `unknown keyword "${kw}"`);
  }
  if (!quorumLine)
    throw new PolicyError(
      Math.max(1, lines.length - (text.endsWith('\n') ? 1 : 0)),
      'the policy has no quorum line',
    );
  return policy;
}

/** The policy's witnesses as keys to verify cosignatures with. */
export function policyWitnesses(p: Policy): KnownWitness[] {
  return p.witnesses.map((w) => ({ name: w.vkey.name, publicKey: w.vkey.publicKey }));
}

/** What a set of cosigners means under a policy. */
export interface QuorumResult {
  /** Whether the quorum is met (always, for `quorum none`). */
  ok: boolean;
  /** How many of the policy's witnesses cosigned (k of "witnessed by k of n"). */
  cosigned: number;
  /** How many witnesses the policy lists (n). */
  witnesses: number;
  /** The key names of the policy's witnesses that cosigned. */
  cosigners: string[];
}

/**
 * Evaluates the quorum for `cosigners`, the key names whose cosignatures verified (verifiedCosigners
 * with policyWitnesses). A witness counts under its policy name; a group when at least k of its members
 * count.
 */
export function evaluatePolicy(p: Policy, cosigners: string[]): QuorumResult {
  const signed = new Set(cosigners);
  const met = new Map<string, boolean>();
  for (const w of p.witnesses) met.set(w.name, signed.has(w.vkey.name));
  for (const g of p.groups) met.set(g.name, g.members.filter((m) => met.get(m)).length >= g.k);
  const counted = p.witnesses.filter((w) => signed.has(w.vkey.name));
  return {
    ok: p.quorum === 'none' || met.get(p.quorum) === true,
    cosigned: counted.length,
    witnesses: p.witnesses.length,
    cosigners: counted.map((w) => w.vkey.name),
  };
}

/** The logs of a policy that sign `origin` (their key name equals the origin, tlog-policy). */
export function policyLogsFor(p: Policy, origin: string): Vkey[] {
  return p.logs.filter((l) => l.vkey.name === origin).map((l) => l.vkey);
}
