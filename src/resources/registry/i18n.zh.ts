/**
 * The Chinese half of ./i18n.ts (the `registry` namespace): the same keys as its `en`, enforced by the
 * type. Merged by src/i18n/zh.ts into the Chinese catalogue, a chunk fetched only when zh is the locale.
 */
import type { en } from './i18n';

const zh: typeof en = {
  registry: {
    upload: {
      button: '上传',
      replace: '重新上传',
      remove: '移除',
      uploading: '上传中…',
      failed: '上传失败：%{message}',
      too_large: '%{name} 超过 %{limit}，未上传',
      field_too_large: '%{field}：%{name} 超过 %{limit}，未上传',
      field_wrong_type: '%{field}：%{name} 不是可接受的文件（%{types}），未上传',
      groups: {
        image: '图片',
        txt: '文本',
        excel: 'Excel',
        word: 'Word',
        pdf: 'PDF',
        ppt: 'PPT',
        video: '视频',
        audio: '音频',
      },
      player: '播放 %{name}',
      hint: '%{types}；不超过 %{limit}',
      open: '打开文件',
      none: '无文件',
    },
    images: {
      too_many: '最多 %{max} 张图片：%{name} 未添加',
      hint: '拖动图片调整顺序；也可聚焦图片后按空格键，用方向键移动，再按空格键放下。第一张为主图。',
      handle: '第 %{position} / %{count} 张图片：拖动调整顺序',
    },
    wx: {
      title: '小程序码',
      generate: '生成小程序码',
      regenerate: '重新生成',
      download: '下载二维码（PNG）',
      none: '尚未生成小程序码',
      generated: '小程序码已生成',
      disabled: '公开页面已关闭（在编辑中启用）',
      enabled: '公开页面已开启',
    },
    bid: { works: '竞买的作品', none: '没有以此用户为竞买人的作品' },
    steps: { one: '主要信息与图片', two: '详细信息' },
  },
};

export { zh };
