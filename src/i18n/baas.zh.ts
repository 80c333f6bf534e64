/** The console's own messages (namespace `baas.*`) in Chinese, key for key those of ./baas.ts. */
import { fieldMessagesZh } from '../../common/messages/zh';
import type { baasEn } from './baas';

/** Chinese of `baasEn`, key for key (checked by the type and by src/i18n/i18n.test.ts). */
export const baasZh: typeof baasEn = {
  app: { title: 'BaaS 管理后台', subtitle: '艺术品登记与区块链控制台' },
  auth: {
    login_title: '登录 BaaS 管理后台',
    session_expired: '您已被登出（登录已过期或被注销），请重新登录。',
  },
  language: { en: 'English', zh: '中文' },
  sections: { main: '基本' },
  action: {
    look_at_works: '查看作品',
    upload: '上传图片',
    add_url: '添加',
    make_main: '设为主图',
    remove_image: '移除图片',
    copy: '复制',
  },
  images: {
    main: '主图',
    url: '图片链接',
    count: '%{count} / %{max} 张图片',
    full: '最多 %{max} 张图片',
    uploading: '上传中…',
    upload_failed: '上传失败：%{message}',
    url_invalid: '请输入以 http://、https:// 或 / 开头的链接',
    none: '无图片',
  },
  message: {
    delete_title: '删除 %{name}',
    delete_irreversible: '确定删除“%{recordRepresentation}”吗？此操作无法撤销。',
    bulk_delete_title: '删除 %{smart_count} 个%{name}',
    bulk_delete_irreversible: '确定删除选中的 %{smart_count} 项吗？此操作无法撤销。',
    copied: '已复制',
  },
  page: { works_of: '%{name} 的作品', works_count: '%{smart_count} 件作品' },
  chain: {
    put: '上链',
    put_selected: '批量上链',
    title: '将 %{smart_count} 条记录上链',
    progress: '已完成 %{done} / %{total}',
    authors_first: '先将其作者上链（%{smart_count} 位作者未上链）',
    authors_needed: '所选作品中有 %{smart_count} 件的作者尚未上链：作者上链之前，这些作品会被拒绝。',
    start: '开始',
    close: '关闭',
    waiting: '等待中',
    working: '正在上链…',
    done: '已上链，区块 %{number}',
    repeated: '已在链上，未改动（区块 %{number}）',
    refused_author: '被拒绝：作者 %{name} 尚未上链',
    failed: '失败：%{message}',
    summary: '%{ok} 条已上链，%{failed} 条被拒绝或失败',
    row_done: '%{name}：已上链，区块 %{number}',
  },
  empty: '—',
  validation: fieldMessagesZh,
  schemaFrom: {
    pick_first: '请先选择%{field}，其参数将显示在这里。',
    none: '无参数',
  },
  archive: {
    archive: '归档',
    restore: '恢复',
    confirm_title: '归档%{name}？',
    confirm_content: '它将移出列表，完整保存在“数据 > 归档”中，可随时恢复。',
    archived: '%{name} 已归档',
    restored: '%{name} 已恢复',
  },
};
