/**
 * Messages of the generic screens' record history (history.tsx), saved views / column chooser
 * (savedViews.tsx), the edit page's conflict view (conflict.tsx) and live notice (src/live/ChangedElsewhere.tsx), under `schemaUi`, English here, Chinese in ./i18n.zh.ts with
 * the same keys (src/i18n/en.ts and zh.ts merge them; src/i18n/i18n.test.ts checks key parity).
 */

const en = {
  schemaUi: {
    history: {
      tab: 'History',
      empty: 'No revisions recorded yet',
      create: 'Created',
      update: 'Edited',
      delete: 'Deleted',
      chain: 'Put on chain',
      by: '%{account} · %{time}',
      formerly: '(then named %{name})',
      field: 'Field',
      before: 'Before',
      after: 'After',
      notRecorded: 'Values not recorded (written before the history kept them)',
      revert: 'Revert to this revision',
      revertTitle: 'Revert to this revision?',
      revertContent: 'The record gets the values of this revision, as a new edit. Nothing else changes.',
      reverted: 'Reverted: the record has the values of revision %{id}',
      transaction: 'Ledger transaction',
      verify: 'Verification',
      revision: 'Revision %{id}',
    },
    views: {
      button: 'Views',
      save: 'Save current view…',
      name: 'View name',
      shared: 'Share with other accounts',
      saved: 'View "%{name}" saved',
      deleted: 'View deleted',
      none: 'No saved views',
      sharedBy: 'shared by %{account}',
      delete: 'Delete view',
      columns: 'Columns',
    },
    conflict: {
      title: 'Changed by someone else',
      intro:
        '%{actor} saved this %{label} after you opened it. Your save was not applied. For each field, keep yours or take theirs, then save.',
      anotherWriter: 'another writer',
      field: 'Field',
      base: 'When you opened it',
      theirs: 'Theirs (%{actor})',
      yours: 'Yours',
      keep: 'Keep',
      keepMine: 'Mine',
      keepTheirs: 'Theirs',
      unchanged: 'unchanged',
      save: 'Save with these values',
      cancel: 'Back to the form',
      same: 'Both made the same change',
    },
    live: {
      changedBy: 'This record was changed by %{actor} since you opened it',
      changedElsewhere: 'This record was changed elsewhere since you opened it',
      reload: 'Reload',
    },
  },
};

export { en };
