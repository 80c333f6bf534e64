/**
 * The Chinese half of ./i18n.ts (the `schemaUi` namespace): the same keys as its `en`, enforced by the
 * type. Merged by src/i18n/zh.ts into the Chinese catalogue, a chunk fetched only when zh is the locale.
 */
import type { en } from './i18n';

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
      formerly: '（当时名为 %{name}）',
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
    conflict: {
      title: '已被他人修改',
      intro:
        '%{actor}在您打开此%{label}后保存了修改，您的保存未生效。请逐个字段选择保留您的值或采用对方的值，然后保存。',
      anotherWriter: '其他写入者',
      field: '字段',
      base: '您打开时',
      theirs: '对方（%{actor}）',
      yours: '您的',
      keep: '保留',
      keepMine: '我的',
      keepTheirs: '对方的',
      unchanged: '未修改',
      save: '按所选值保存',
      cancel: '返回表单',
      same: '双方修改相同',
    },
    live: {
      changedBy: '此记录在您打开后已被 %{actor} 修改',
      changedElsewhere: '此记录在您打开后已在别处被修改',
      reload: '重新加载',
    },
  },
};

export { zh };
