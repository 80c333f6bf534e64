/**
 * The log's witness configuration (docs/ledger.md section 11.3-11.4), read once at start: the policy
 * (`LEDGER_WITNESS_POLICY`, a C2SP tlog-policy file) and the witnesses the log pushes to and asks
 * (`LEDGER_WITNESSES` plus the policy's `witness` lines with a URL).
 */
import { readFileSync } from 'node:fs';
import { parsePolicy, type Policy } from '../../common/ledger/policy';
import { ConfigError } from '../configError';
import { parseWitnessList, withPolicyWitnesses, type ConfiguredWitness } from './witnessPush';

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
