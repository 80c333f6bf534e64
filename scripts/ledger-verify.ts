/**
 * `npm run ledger:verify [-- --channel <name>] [--key <verifier key>] [--all-signatures]`: opens the
 * configured database (DATA_DIR / DATABASE_URL, as the server does; read-only use) and runs the full
 * verification of docs/ledger.md section 6 (server/ledger/audit.ts): every transaction leaf hash, Merkle
 * root, DER block hash and previous-hash link; the signed checkpoints against the recomputed heads (the
 * key: `--key <name+id+base64>` as `GET /baas-api/public/key` answers `vkey`, repeated for a rotated
 * key's chain (oldest first; each transition checkpoint signed by a key and the next), else the server's key from
 * LEDGER_SIGNING_KEY or DATA_DIR); and every author and artwork against the ledger. Prints "verified ..."
 * or the first failure and every registry problem, and the records edited through the API since their put
 * on chain (each with the audited write that explains it; not a failure). Then the witnesses (docs/ledger.md section 11.4,
 * server/ledger/witnessCheck.ts): per channel "witnessed by k of n" for the latest cosigned checkpoint,
 * counted under the policy (`--policy <tlog-policy file>`, else LEDGER_WITNESS_POLICY) or over the
 * configured witnesses (LEDGER_WITNESSES); with a policy, a channel short of its quorum is "Not verified".
 * Exit code 0 when verified, 1 when broken or short of the quorum, 2 on a usage or database error.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from '../server/db/connect';
import { loadConfig } from '../server/config';
import { auditLedger, type VerifyKey } from '../server/ledger/audit';
import { KEY_FILE, loadSigningKey } from '../server/ledger/checkpoints';
import { ed25519PrivateKey, ed25519PublicKey } from '../server/ledger/ed25519Key';
import { parseVerifierKey } from '../common/ledger/note';
import type { EditedRecord } from '../common/ledger/audit';
import { createRepositories } from '../kernel/server/resources';
import { resourceHooks } from '../kernel/hooks/index';
import { parsePolicy, type Policy } from '../common/ledger/policy';
import { witnessSummary } from '../server/ledger/witnessCheck';
import { parseWitnessList, withPolicyWitnesses } from '../server/ledger/witnessPush';

const USAGE =
  'usage: npm run ledger:verify [-- --channel <name>] [--key <verifier key>]... [--all-signatures] [--policy <tlog-policy file>]   (DATA_DIR / DATABASE_URL select the database)';

/** Prints the records edited since their put on chain (not failures), the first 20 in full. */
function printEdited(edited: EditedRecord[]): void {
  if (edited.length === 0) return;
  console.log(`edited since put on chain (audited writes, not tampering): ${edited.length}`);
  for (const e of edited.slice(0, 20)) console.log(`  ${e.message}`);
  if (edited.length > 20) console.log(`  ... and ${edited.length - 20} more`);
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  let channel: string | undefined;
  const vkeys: string[] = [];
  let allSignatures = false;
  let policyFile: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--channel' && args[i + 1]) channel = args[++i];
    else if (args[i] === '--key' && args[i + 1]) vkeys.push(args[++i]);
    else if (args[i] === '--all-signatures') allSignatures = true;
    else if (args[i] === '--policy' && args[i + 1]) policyFile = args[++i];
    else if (args[i] === '--help' || args[i] === '-h') {
      console.log(USAGE);
      return 0;
    } else {
      console.error(`unknown argument "${args[i]}"; ${USAGE}`);
      return 2;
    }
  }
  const config = loadConfig();
  policyFile ??= config.ledgerWitnessPolicy;
  let policy: Policy | undefined;
  let witnesses;
  try {
    if (policyFile) policy = await parsePolicy(readFileSync(policyFile, 'utf8'));
    witnesses = withPolicyWitnesses(await parseWitnessList(config.ledgerWitnesses), policy);
  } catch (err) {
    console.error(`${policyFile ? `policy ${policyFile}: ` : ''}${(err as Error).message}`);
    return 2;
  }
  let key: VerifyKey | undefined;
  if (vkeys.length) {
    // Several --key: a rotated key's chain, oldest first (docs/ledger.md section 10, key rotation).
    const ks = await Promise.all(vkeys.map((v) => parseVerifierKey(v))).catch((err: Error) => {
      console.error(`--key: ${err.message}`);
      return undefined;
    });
    if (!ks) return 2;
    const k = ks[ks.length - 1];
    key = {
      ...k,
      previous: ks.slice(0, -1).map((x) => x.publicKey),
      fingerprint: `verifier key ${vkeys[vkeys.length - 1]}`,
    };
  } else if (config.ledgerSigningKey || existsSync(join(config.dataDir, KEY_FILE))) {
    key = await loadSigningKey({
      dataDir: config.dataDir,
      envKey: config.ledgerSigningKey,
      name: config.ledgerKeyName,
    });
    if (config.ledgerPreviousSigningKey)
      key.previous = [
        ed25519PublicKey(ed25519PrivateKey(config.ledgerPreviousSigningKey, 'LEDGER_PREVIOUS_SIGNING_KEY')),
      ];
  } else {
    console.error(`no signing key: pass --key <verifier key> (GET /baas-api/public/key answers it as vkey)`);
    return 2;
  }
  const { db, dialect } = connect({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    const hasLedger = await db.introspection
      .getTables()
      .then((tables) => tables.some((t) => t.name === 'ledger_block'));
    if (!hasLedger) {
      console.error(
        `no ledger in ${config.databaseUrl ? 'the DATABASE_URL database' : `${config.dataDir}/baas.sqlite`}: start the server once first`,
      );
      return 2;
    }
    const started = performance.now();
    const result = await auditLedger(db, createRepositories(dialect, resourceHooks), key, {
      channel,
      allSignatures,
    });
    const ms = Math.round(performance.now() - started);
    if (result.ok) {
      console.log(`${result.message} (${ms} ms)`);
      printEdited(result.registry.edited);
      let short = false;
      for (const w of await witnessSummary(
        db,
        policy,
        witnesses.map((x) => x.vkey),
        channel,
      )) {
        const line = `${w.channel}: checkpoint ${w.size} witnessed by ${w.quorum.cosigned} of ${w.quorum.witnesses}`;
        if (w.required && !w.quorum.ok) {
          short = true;
          console.error(`Not verified: ${line}; the policy's quorum (${policy!.quorum}) is not met`);
        } else console.log(`Verified, ${line}${w.required ? ` (quorum ${policy!.quorum} met)` : ''}`);
      }
      return short ? 1 : 0;
    }
    console.error(`BROKEN: ${result.message}`);
    console.error(
      `  checked before the failure: ${result.chain.blocks} blocks, ${result.chain.transactions} transactions`,
    );
    for (const p of result.registry.problems) console.error(`  registry: ${p.message}`);
    printEdited(result.registry.edited);
    return 1;
  } catch (err) {
    console.error(`ledger:verify failed: ${(err as Error).message}`);
    return 2;
  } finally {
    await db.destroy();
  }
}

process.exitCode = await main();
