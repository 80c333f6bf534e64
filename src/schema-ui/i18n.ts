/**
 * Messages of the generic screens' record history (history.tsx), saved views / column chooser
 * (savedViews.tsx) and the edit page's live notice (src/live/ChangedElsewhere.tsx), under `schemaUi`, English and Chinese with the same keys (src/i18n/merge.ts spreads
 * them into the catalogues; its test checks key parity).
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
    live: {
      changedBy: 'This record was changed by %{actor} since you opened it',
      changedElsewhere: 'This record was changed elsewhere since you opened it',
      reload: 'Reload',
    },
  },
};

const zh: typeof en = {
  schemaUi: {
    history: {
      tab: '历史',
      empty: '暂无版本记录',
      create: '创建',
      update: '编辑',
      delete: '删除',
      chain: '上链',
      by: '%{account} · %{time}',
      field: '字段',
      before: '修改前',
      after: '修改后',
      notRecorded: '未记录字段值（早于历史记录功能的写入）',
      revert: '恢复到此版本',
      revertTitle: '恢复到此版本？',
      revertContent: '记录将以一次新的编辑恢复为此版本的值，其他内容不变。',
      reverted: '已恢复：记录现为版本 %{id} 的值',
      transaction: '账本交易',
      verify: '验证',
      revision: '版本 %{id}',
    },
    views: {
      button: '视图',
      save: '保存当前视图…',
      name: '视图名称',
      shared: '共享给其他账号',
      saved: '视图“%{name}”已保存',
      deleted: '视图已删除',
      none: '暂无保存的视图',
      sharedBy: '由 %{account} 共享',
      delete: '删除视图',
      columns: '列',
    },
    live: {
      changedBy: '此记录在您打开后已被 %{actor} 修改',
      changedElsewhere: '此记录在您打开后已在别处被修改',
      reload: '重新加载',
    },
  },
};

export { en, zh };
