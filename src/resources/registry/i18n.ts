/**
 * The registry screens' messages under the `registry` namespace (uploads, image ordering, mini-program
 * code, bid users, two-step add), English and Chinese with the same keys (src/i18n/merge.ts spreads them
 * into the catalogues; its test checks key parity).
 */

const en = {
  registry: {
    upload: {
      button: 'Upload',
      replace: 'Replace',
      remove: 'Remove',
      uploading: 'Uploading…',
      failed: 'Upload failed: %{message}',
      too_large: '%{name} is larger than %{limit}: not uploaded',
      field_too_large: '%{field}: %{name} is larger than %{limit}: not uploaded',
      field_wrong_type: '%{field}: %{name} is not an accepted file (%{types}): not uploaded',
      groups: {
        image: 'image',
        txt: 'text',
        excel: 'Excel',
        word: 'Word',
        pdf: 'PDF',
        ppt: 'PowerPoint',
        video: 'video',
        audio: 'audio',
      },
      player: 'Play %{name}',
      hint: '%{types}; at most %{limit}',
      open: 'Open file',
      none: 'No file',
    },
    images: {
      too_many: 'At most %{max} images: %{name} was not added',
      hint: 'Drag an image to reorder, or focus it, press Space, move it with the arrow keys and press Space again. The first image is the main picture.',
      handle: 'Image %{position} of %{count}: drag to reorder',
    },
    wx: {
      title: 'Mini-program code',
      generate: 'Generate mini-program code',
      regenerate: 'Generate a new code',
      download: 'Download QR code (PNG)',
      none: 'No mini-program code yet',
      generated: 'Mini-program code generated',
      disabled: 'The public page is switched off (enable it in Edit)',
      enabled: 'The public page is on',
    },
    bid: { works: 'Artworks bid on', none: 'No artwork has this bid user' },
    steps: { one: 'Main information and images', two: 'Sections' },
  },
};

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

export { en, zh };
