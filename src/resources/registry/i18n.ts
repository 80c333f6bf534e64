/**
 * The registry screens' messages under the `registry` namespace (uploads, image ordering, mini-program
 * code, bid users, two-step add), English here, Chinese in ./i18n.zh.ts with the
 * same keys (src/i18n/en.ts and zh.ts merge them; src/i18n/i18n.test.ts checks key parity).
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

export { en };
