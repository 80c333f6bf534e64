/**
 * The log's witness configuration (docs/witnesses.md section 11.3-11.4), read once at start: the policy
 * (`LEDGER_WITNESS_POLICY`, a C2SP tlog-policy file) and the witnesses the log pushes to and asks
 * (`LEDGER_WITNESSES` plus the policy's `witness` lines with a URL).
 */
import { readFileSync } from 'node:fs';
import { parsePolicy, type Policy } from '../../common/ledger/policy';
import { ConfigError } from '../configError';
import { COSIGNATURE_TYPE } from '../../common/ledger/note';
import { parseVkey, type Vkey } from '../../common/ledger/witness';

/** The parsed witness configuration. */
export interface WitnessConfig {
  policy?: Policy;
  list: ConfiguredWitness[];
}

/**
 * Reads the policy file and the witness list. @throws ConfigError (server/configError.ts), one line naming the variable, the file and
 * the line that is wrong.
 */
export async function loadWitnessConfig(c: {
  ledgerWitnessPolicy?: string;
  ledgerWitnesses?: string;
}): Promise<WitnessConfig> {
  let policy: Policy | undefined;
  if (c.ledgerWitnessPolicy) {
    const file = c.ledgerWitnessPolicy;
    try {
      policy = await parsePolicy(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new ConfigError(`LEDGER_WITNESS_POLICY ${file}: ${(err as Error).message}`);
    }
  }
  try {
    return { policy, list: withPolicyWitnesses(await parseWitnessList(c.ledgerWitnesses), policy) };
  } catch (err) {
    // Malformed LEDGER_WITNESSES, or two keys for one witness name: the configuration, not a bug.
    throw new ConfigError((err as Error).message);
  }
}

/** A witness the log pushes to. */
export interface ConfiguredWitness {
  vkey: Vkey;
  /** Submission prefix, without a trailing slash; add-checkpoint is `<url>/add-checkpoint`. */
  url: string;
}

/**
 * Parses `LEDGER_WITNESSES`: entries separated by commas, semicolons or newlines, each a witness's
 * submission prefix URL (http or https) and its cosigner vkey separated by whitespace, in either order.
 * @throws Error naming the entry that is wrong.
 */
export async function parseWitnessList(text: string | undefined): Promise<ConfiguredWitness[]> {
  const out: ConfiguredWitness[] = [];
  for (const entry of (text ?? '').split(/[,;\n]/)) {
    const words = entry.trim().split(/\s+/).filter(Boolean);
    if (words.length === 0) continue;
    const url = words.find((w) => /^https?:\/\//.test(w));
    const vkey = words.find((w) => w !== url);
    if (!url || !vkey || words.length !== 2)
      throw new Error(`LEDGER_WITNESSES entry "${entry.trim()}" must be "<url> <witness vkey>"`);
    let v: Vkey;
    try {
      v = await parseVkey(vkey, [COSIGNATURE_TYPE]);
    } catch (err) {
      throw new Error(`LEDGER_WITNESSES: ${(err as Error).message}`);
    }
    add(out, { vkey: v, url: url.replace(/\/+$/, '') });
  }
  return out;
}

/** The witnesses of a policy that have a URL, added to `list` (one entry per key name). */
export function withPolicyWitnesses(
  list: ConfiguredWitness[],
  policy: Policy | undefined,
): ConfiguredWitness[] {
  const out = [...list];
  for (const w of policy?.witnesses ?? [])
    if (w.url) add(out, { vkey: w.vkey, url: w.url.replace(/\/+$/, '') });
  return out;
}

function add(list: ConfiguredWitness[], w: ConfiguredWitness): void {
  const same = list.find((o) => o.vkey.name === w.vkey.name);
  if (!same) list.push(w);
  else if (same.vkey.text !== w.vkey.text)
    throw new Error(`two different keys for witness ${w.vkey.name}: ${same.vkey.text} and ${w.vkey.text}`);
}
