/**
 * `npm run ledger:verify-proof -- <file.tlog-proof> --vkey <log vkey> [--policy <tlog-policy file>]`:
 * checks an offline proof (C2SP tlog-proof, common/ledger/proofFile.ts; downloaded from a record's
 * on-chain panel or public page) with no network: the checkpoint's signature by the log's vkey (its name
 * is the origin), the inclusion of the entry in that checkpoint's tree, and, with a policy, the
 * cosignatures of its witnesses and its quorum. Prints "Verified, witnessed by k of n: ..." (or
 * "Verified (no policy: ...)") and the entry, exit 0; "Not verified: <why>", exit 1; exit 2 on usage.
 */
import { readFileSync } from 'node:fs';
import { ED25519_TYPE } from '../common/ledger/note';
import { parsePolicy, type Policy } from '../common/ledger/policy';
import { verifyProofFile } from '../common/ledger/proofFile';
import { parseVkey, type Vkey } from '../common/ledger/witness';

const USAGE =
  'usage: npm run ledger:verify-proof -- <file.tlog-proof> --vkey <log vkey> [--policy <tlog-policy file>]';

/** Runs the check; answers the exit code and the lines to print. */
export async function verifyProofCli(argv: string[]): Promise<{ code: number; out: string[] }> {
  let file: string | undefined;
  let vkeyText: string | undefined;
  let policyFile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--vkey' && argv[i + 1]) vkeyText = argv[++i];
    else if (a === '--policy' && argv[i + 1]) policyFile = argv[++i];
    else if (!a.startsWith('--') && !file) file = a;
    else return { code: 2, out: [`unknown argument "${a}"`, USAGE] };
  }
  if (!file || !vkeyText) return { code: 2, out: [USAGE] };
  let text: string;
  let vkey: Vkey;
  let policy: Policy | undefined;
  try {
    text = readFileSync(file, 'utf8');
    vkey = await parseVkey(vkeyText, [ED25519_TYPE]);
    if (policyFile) policy = await parsePolicy(readFileSync(policyFile, 'utf8'));
  } catch (err) {
    return { code: 2, out: [(err as Error).message, USAGE] };
  }
  const r = await verifyProofFile(text, vkey, policy);
  if (!r.ok) {
    const witnessed = r.quorum ? ` (witnessed by ${r.quorum.cosigned} of ${r.quorum.witnesses})` : '';
    return { code: 1, out: [`Not verified: ${r.message}${witnessed}`] };
  }
  const where = `entry ${r.index} in tree ${r.checkpoint!.size} of ${r.checkpoint!.origin}`;
  return {
    code: 0,
    out: [
      r.quorum
        ? `Verified, witnessed by ${r.quorum.cosigned} of ${r.quorum.witnesses}: ${where}`
        : `Verified (no policy given: witness cosignatures not checked): ${where}`,
      `entry: ${r.entry}`,
    ],
  };
}

if (process.argv[1] && /ledger-verify-proof\.(ts|mjs)$/.test(process.argv[1])) {
  const r = await verifyProofCli(process.argv.slice(2));
  for (const line of r.out) (r.code === 0 ? console.log : console.error)(line);
  process.exitCode = r.code;
}
