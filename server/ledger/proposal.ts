/**
 * Validation of a transaction proposal and of channel names before anything is stored (docs/ledger.md
 * section 1); errors are `LedgerError('bad-proposal')` naming the field.
 */
import { LedgerError, type TxProposal } from '../../common/ledger/types';

/** Limits on a proposal, so a transaction row stays small. */
const MAX_ARGS = 32;
const MAX_ARG_LENGTH = 4096;
const NAME_RE = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
/** Channel names: Fabric's rule, shortened (docs/ledger.md section 1). */
export const CHANNEL_NAME_RE = /^[a-z][a-z0-9.-]{0,48}$/;

/** Validates a proposal. @throws LedgerError `bad-proposal` naming the field. */
export function checkProposal(p: TxProposal): void {
  const bad = (m: string) => {
    throw new LedgerError('bad-proposal', m);
  };
  if (typeof p.chaincode !== 'string' || !NAME_RE.test(p.chaincode)) bad(`chaincode must match ${NAME_RE}`);
  if (typeof p.function !== 'string' || !NAME_RE.test(p.function)) bad(`function must match ${NAME_RE}`);
  if (typeof p.creator !== 'string' || p.creator.length === 0 || p.creator.length > 128)
    bad('creator must be 1..128 characters');
  if (!Array.isArray(p.args) || p.args.length > MAX_ARGS)
    bad(`args must be an array of at most ${MAX_ARGS} strings`);
  for (let i = 0; i < p.args.length; i++) {
    const a = p.args[i];
    if (typeof a !== 'string' || a.length > MAX_ARG_LENGTH)
      bad(`args[${i}] must be a string of at most ${MAX_ARG_LENGTH} characters`);
  }
}
