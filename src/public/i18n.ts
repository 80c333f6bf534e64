/**
 * Messages of the public pages (verification page, artwork certificate), English and Chinese with the
 * same keys (the unit test src/public/public.test.ts checks parity). These pages run without the console
 * and without login, so they carry their own small catalogue; the language is the console's `language`
 * cookie or the browser's (src/i18n `currentLocale`), switchable on the page.
 */
const en = {
  title: 'Public verification',
  certificate: 'Certificate of registration',
  verified: 'Verified',
  notVerified: 'Not verified',
  notPublished: 'Not published',
  notPublishedDetail: 'This record is not on chain, or its public page is switched off.',
  checking: 'Checking in your browser…',
  error: 'Could not load the record: %{message}',
  author: 'Author',
  artwork: 'Artwork',
  name: 'Name',
  introduction: 'Introduction',
  category: 'Category',
  texture: 'Material',
  certificateNo: 'Certificate number',
  issuer: 'Issuer',
  version: 'Version on chain',
  block: 'Block',
  channel: 'Channel',
  txId: 'Transaction ID',
  txTime: 'Put on chain at (UTC, hashed)',
  checkpoint: 'Signed checkpoint',
  fingerprint: 'Signing key fingerprint (SHA-256)',
  stepsTitle: 'What your browser checked',
  'step.digest': 'The record hashes to the digest on chain',
  'step.merkle': 'The Merkle proof leads to the block',
  'step.header': 'The block header hashes to the block hash',
  'step.signature': 'A checkpoint signed by the published key covers the block',
  'step.latest': 'No newer version exists on chain',
  'fail.digest': 'The record differs from its latest version on chain.',
  'fail.merkle': "The transaction does not lead to the block's data hash.",
  'fail.header': 'The block header does not hash to the block hash.',
  'fail.signature': 'No checkpoint signed by the published key covers this block.',
  'fail.latest': "The record is not the ledger's latest version of it.",
  expected: 'recomputed',
  found: 'received',
  print: 'Print or save as PDF',
  scan: 'Scan to verify on chain',
  verifyLink: 'Open the verification page',
  language: '中文',
  witnessedBy: 'witnessed by %{k} of %{n}',
  quorumMissing: "The log's witness policy is not met: witnessed by %{k} of %{n}.",
  quorumUnknown: "The log's witness policy could not be checked.",
  haltedFork:
    'The log is halted: its server found that the stored history does not extend the last checkpoint it signed (a fork). %{reason}',
  haltedRollback:
    'The log is halted: its server found the stored history behind the last checkpoint it signed (a rollback). %{reason}',
  haltedKey:
    'The log is halted: its latest checkpoint is not signed by the key its server holds now. %{reason}',
  forkTitle: 'Alarm: the log forked',
  rollbackTitle: 'Alarm: the log rolled back',
  forkDetail: 'The log now shows a history that does not extend the one this browser verified before.',
  downloadEvidence: 'Download the evidence',
  downloadProof: 'Download the offline proof (.tlog-proof)',
};

type Messages = typeof en;

const zh: Messages = {
  title: '公开验证',
  certificate: '登记证书',
  verified: '已验证',
  notVerified: '未通过验证',
  notPublished: '未公开',
  notPublishedDetail: '该记录尚未上链，或其公开页面已关闭。',
  checking: '正在浏览器中验证…',
  error: '无法加载记录：%{message}',
  author: '作者',
  artwork: '作品',
  name: '名称',
  introduction: '简介',
  category: '作品分类',
  texture: '材质',
  certificateNo: '证书编号',
  issuer: '发证机构',
  version: '链上版本',
  block: '区块',
  channel: '通道',
  txId: '交易 ID',
  txTime: '上链时间（UTC，已计入哈希）',
  checkpoint: '已签名检查点',
  fingerprint: '签名公钥指纹（SHA-256）',
  stepsTitle: '浏览器完成的校验',
  'step.digest': '记录的哈希与链上摘要一致',
  'step.merkle': '默克尔证明指向该区块',
  'step.header': '区块头哈希与区块哈希一致',
  'step.signature': '已发布公钥签名的检查点覆盖该区块',
  'step.latest': '链上没有更新的版本',
  'fail.digest': '记录与其在链上的最新版本不一致。',
  'fail.merkle': '该交易无法推导出区块的数据哈希。',
  'fail.header': '区块头的哈希与区块哈希不一致。',
  'fail.signature': '没有由已发布公钥签名的检查点覆盖该区块。',
  'fail.latest': '该记录不是账本中的最新版本。',
  expected: '重新计算',
  found: '收到',
  print: '打印或另存为 PDF',
  scan: '扫码在链上验证',
  verifyLink: '打开验证页面',
  language: 'English',
  witnessedBy: '%{k}/%{n} 个见证节点已联署',
  quorumMissing: '未满足账本的见证策略：%{k}/%{n} 个见证节点已联署。',
  quorumUnknown: '无法检查账本的见证策略。',
  haltedFork: '账本已暂停：服务器发现存储的历史并未延续其最后签名的检查点（分叉）。%{reason}',
  haltedRollback: '账本已暂停：服务器发现存储的历史落后于其最后签名的检查点（回滚）。%{reason}',
  haltedKey: '账本已暂停：其最新检查点不是由服务器当前持有的密钥签名的。%{reason}',
  forkTitle: '警报：账本出现分叉',
  rollbackTitle: '警报：账本发生回滚',
  forkDetail: '账本当前展示的历史并未延续本浏览器此前验证过的历史。',
  downloadEvidence: '下载证据',
  downloadProof: '下载离线证明（.tlog-proof）',
};

export type PublicLocale = 'en' | 'zh';
export type PublicKey = keyof Messages;
export const publicMessages: Record<PublicLocale, Messages> = { en, zh };

/** The message `key` in `locale`, with `%{name}` placeholders filled from `params`. */
export function pt(
  locale: PublicLocale,
  key: PublicKey,
  params: Record<string, string | number> = {},
): string {
  return publicMessages[locale][key].replace(/%\{(\w+)\}/g, (_, n: string) => String(params[n] ?? ''));
}
