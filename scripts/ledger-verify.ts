/**
 * `npm run ledger:verify [-- --channel <name>] [--key <verifier key>] [--all-signatures] [--policy <file>]
 * [--state <file>]`: runs in the server's own environment (server/config.ts `loadConfig`: DATA_DIR /
 * DATABASE_URL select the database, read-only use; LEDGER_KEY_DIR, LEDGER_SIGNING_KEY,
 * LEDGER_PREVIOUS_SIGNING_KEY, LEDGER_WITNESS_POLICY, LEDGER_ORIGIN) and checks, docs/ledger.md sections
 * 6, 10 and 11.4:
 * - the full verification (server/ledger/audit.ts): every transaction leaf hash, Merkle root, DER block
 *   hash and previous-hash link; the signed checkpoints against the recomputed heads (the key: `--key
 *   <name+id+base64>` as `GET /baas-api/public/key` answers `vkey`, repeated for a rotated key's chain,
 *   oldest first; else the server's key from LEDGER_SIGNING_KEY or `<LEDGER_KEY_DIR>/ledger-signing-key.pem`);
 *   and every author and artwork against the ledger (records edited through the API are listed, not failures);
 * - the signer's state (server/ledger/signedState.ts): `<LEDGER_KEY_DIR>/ledger-signed-checkpoints.json`
 *   when present, or `--state <file>`: per origin the note verifies with the key, and the database's log
 *   is neither behind it ("rollback: the log has N entries, the last signed checkpoint has M") nor
 *   inconsistent with it ("fork");
 * - the witnesses (server/ledger/witnessCheck.ts): the quorum on each channel's head (its latest
 *   checkpoint) under the policy (`--policy`, else LEDGER_WITNESS_POLICY), else counted over the
 *   configured witnesses (LEDGER_WITNESSES); under a policy a head short of it is "not witnessed: head N,
 *   last witnessed M".
 * Exit code 0 when verified, 1 when broken, rolled back, forked or short of the quorum, 2 on a usage,
 * configuration or database error (one line).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { connect } from '../server/db/connect';
import { loadConfig, type AppConfig } from '../server/config';
import { auditLedger, type VerifyKey } from '../server/ledger/audit';
import { KEY_FILE, loadSigningKey, SIGNED_STATE_FILE } from '../server/ledger/checkpoints';
import { ed25519PrivateKey, ed25519PublicKey } from '../server/ledger/ed25519Key';
import { resolveOriginPrefix } from '../server/ledger/origin';
import { checkSignedState, parseSignedState, type SignedStateEntry } from '../server/ledger/signedState';
import { parseVerifierKey } from '../common/ledger/note';
import type { EditedRecord } from '../common/ledger/audit';
import { createRepositories } from '../kernel/server/resources';
import { resourceHooks } from '../kernel/hooks/index';
import { parsePolicy, type Policy } from '../common/ledger/policy';
import { witnessSummary } from '../server/ledger/witnessCheck';
import { parseWitnessList, withPolicyWitnesses } from '../server/ledger/witnessPush';

const USAGE =
  "usage: npm run ledger:verify [-- --channel <name>] [--key <verifier key>]... [--all-signatures] [--policy <tlog-policy file>] [--state <signed state file>]   (the server's environment: DATA_DIR / DATABASE_URL, LEDGER_KEY_DIR, LEDGER_SIGNING_KEY...)";

/** A usage, configuration or input error: one line, exit 2. */
class UsageError extends Error {}

/** Prints the records edited since their put on chain (not failures), the first 20 in full. */
function printEdited(edited: EditedRecord[]): void {
  if (edited.length === 0) return;
  console.log(`edited since put on chain (audited writes, not tampering): ${edited.length}`);
  for (const e of edited.slice(0, 20)) console.log(`  ${e.message}`);
  if (edited.length > 20) console.log(`  ... and ${edited.length - 20} more`);
}

/** The key checkpoints are verified with: `--key` vkeys (a rotation's chain), else the server's key. */
async function verifyKey(config: AppConfig, vkeys: string[]): Promise<VerifyKey> {
  if (vkeys.length) {
    // Several --key: a rotated key's chain, oldest first (docs/ledger.md section 10, key rotation).
    const ks = await Promise.all(vkeys.map((v) => parseVerifierKey(v))).catch((err: Error) => {
      throw new UsageError(`--key: ${err.message}`);
    });
    const k = ks[ks.length - 1];
    return {
      ...k,
      previous: ks.slice(0, -1).map((x) => x.publicKey),
      fingerprint: `verifier key ${vkeys[vkeys.length - 1]}`,
    };
  }
  const file = join(config.ledgerKeyDir, KEY_FILE);
  if (!config.ledgerSigningKey && !existsSync(file))
    throw new UsageError(
      `no signing key: neither LEDGER_SIGNING_KEY nor ${file} (LEDGER_KEY_DIR); pass --key <verifier key> (GET /baas-api/public/key answers it as vkey)`,
    );
  try {
    const key: VerifyKey = await loadSigningKey({
      dataDir: config.ledgerKeyDir,
      envKey: config.ledgerSigningKey,
      name: config.ledgerKeyName,
    });
    if (config.ledgerPreviousSigningKey)
      key.previous = [
        ed25519PublicKey(ed25519PrivateKey(config.ledgerPreviousSigningKey, 'LEDGER_PREVIOUS_SIGNING_KEY')),
      ];
    return key;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** The signer's state: `--state <file>` (must exist), else `<LEDGER_KEY_DIR>/<SIGNED_STATE_FILE>` if present. */
function signedState(
  config: AppConfig,
  given: string | undefined,
): Record<string, SignedStateEntry> | undefined {
  const file = given ?? join(config.ledgerKeyDir, SIGNED_STATE_FILE);
  if (!given && !existsSync(file)) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`--state: ${(err as Error).message}`);
  }
  try {
    return parseSignedState(text, file);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** Runs the checks; resolves the exit code. */
async function main(): Promise<number> {
  const args = process.argv.slice(2);
  let channel: string | undefined;
  const vkeys: string[] = [];
  let allSignatures = false;
  let policyFile: string | undefined;
  let stateFile: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--channel' && args[i + 1]) channel = args[++i];
    else if (args[i] === '--key' && args[i + 1]) vkeys.push(args[++i]);
    else if (args[i] === '--all-signatures') allSignatures = true;
    else if (args[i] === '--policy' && args[i + 1]) policyFile = args[++i];
    else if (args[i] === '--state' && args[i + 1]) stateFile = args[++i];
    else if (args[i] === '--help' || args[i] === '-h') {
      console.log(USAGE);
      return 0;
    } else throw new UsageError(`unknown argument "${args[i]}"; ${USAGE}`);
  }
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  policyFile ??= config.ledgerWitnessPolicy;
  let policy: Policy | undefined;
  let witnesses;
  try {
    if (policyFile) policy = await parsePolicy(readFileSync(policyFile, 'utf8'));
    witnesses = withPolicyWitnesses(await parseWitnessList(config.ledgerWitnesses), policy);
  } catch (err) {
    throw new UsageError(`${policyFile ? `policy ${policyFile}: ` : ''}${(err as Error).message}`);
  }
  const key = await verifyKey(config, vkeys);
  const state = signedState(config, stateFile);
  const { db, dialect } = connect({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    const hasLedger = await db.introspection
      .getTables()
      .then((tables) => tables.some((t) => t.name === 'ledger_block'));
    if (!hasLedger)
      throw new UsageError(
        `no ledger in ${config.databaseUrl ? 'the DATABASE_URL database' : `${config.dataDir}/baas.sqlite`}: start the server once first`,
      );
    // LEDGER_ORIGIN must name this ledger's logs (a renamed log is another log).
    await resolveOriginPrefix(db, config.ledgerOrigin, true).catch((err: Error) => {
      throw new UsageError(err.message);
    });
    const started = performance.now();
    const result = await auditLedger(db, createRepositories(dialect, resourceHooks), key, {
      channel,
      allSignatures,
    });
    const ms = Math.round(performance.now() - started);
    let failed = !result.ok;
    if (result.ok) console.log(`${result.message} (${ms} ms)`);
    else {
      console.error(`BROKEN: ${result.message}`);
      console.error(
        `  checked before the failure: ${result.chain.blocks} blocks, ${result.chain.transactions} transactions`,
      );
      for (const p of result.registry.problems) console.error(`  registry: ${p.message}`);
    }
    printEdited(result.registry.edited);
    if (state) failed = (await printSignedState(db, state, key, channel, config.ledgerOrigin)) || failed;
    if (result.ok) failed = (await printWitnesses(db, policy, witnesses, channel)) || failed;
    return failed ? 1 : 0;
  } finally {
    await db.destroy();
  }
}

/** Prints the signed state's check of each origin (of `channel` only, when given); resolves whether one failed. */
async function printSignedState(
  db: Kysely<any>,
  state: Record<string, SignedStateEntry>,
  key: VerifyKey,
  channel: string | undefined,
  prefix: string | undefined,
): Promise<boolean> {
  let failed = false;
  for (const c of await checkSignedState(db, state, key, prefix)) {
    if (channel !== undefined && c.channel !== null && c.channel !== channel) continue;
    if (!c.checked) console.log(`signed state: ${c.message}`);
    else if (c.ok) console.log(`Verified, signed state: ${c.message}`);
    else {
      failed = true;
      console.error(`Not verified: ${c.message}`);
    }
  }
  return failed;
}

/** Prints each channel's witness line (docs/witnesses.md section 11.4); resolves whether a head is short of the policy's quorum. */
async function printWitnesses(
  db: Kysely<any>,
  policy: Policy | undefined,
  witnesses: { vkey: Parameters<typeof witnessSummary>[2][number] }[],
  channel: string | undefined,
): Promise<boolean> {
  let short = false;
  for (const w of await witnessSummary(
    db,
    policy,
    witnesses.map((x) => x.vkey),
    channel,
  )) {
    const count = `witnessed by ${w.quorum.cosigned} of ${w.quorum.witnesses}`;
    if (w.required && !w.quorum.ok) {
      short = true;
      console.error(
        `Not verified, ${w.channel}: not witnessed: head ${w.size}, last witnessed ${w.lastWitnessed} (the head is ${count}; the policy's quorum ${policy!.quorum} is not met)`,
      );
    } else if (!w.required && w.quorum.witnesses === 0)
      console.log(`${w.channel}: checkpoint ${w.size} (head); no witnesses configured (LEDGER_WITNESSES)`);
    else
      console.log(
        `Verified, ${w.channel}: checkpoint ${w.size} (head) ${count}${w.required ? ` (quorum ${policy!.quorum} met)` : ''}`,
      );
  }
  return short;
}

process.exitCode = await main().catch((err: Error) => {
  console.error(err instanceof UsageError ? err.message : `ledger:verify failed: ${err.message}`);
  return 2;
});
