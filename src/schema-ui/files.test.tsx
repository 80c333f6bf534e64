// @vitest-environment jsdom
/**
 * The audio upload group in the console (issue 21: "the audio group is missing; an mp3 is not
 * recognised"), for any schema property whose `x-upload` names `audio` (here a made-up resource, so no
 * product schema is touched), in en and zh:
 * - the property resolves to the upload input (kernel/dialect/kinds.ts), whose file dialog offers mp3, wav
 *   and wmv (`accept`);
 * - a real mp3 (an ID3v2 tag, then an MPEG-1 layer III frame; ISO/IEC 11172-3 section 2.4.1.3) is sent
 *   with the upload call, named by resource and field, and the value then plays in an `<audio controls>`;
 * - a file that is not audio by its content (a PNG named .mp3), or over the limit, is refused before
 *   sending, with a message naming the field in the user's language;
 * - show and list display an audio value as an `<audio controls>` player and a video value (mp4, m2v,
 *   mkv) as a `<video controls>` player with the file's URL, an image value still as its thumbnail link.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import {
  AdminContext,
  Form,
  Notification,
  RecordContextProvider,
  ResourceContextProvider,
} from 'react-admin';
import type { ResourceSchema } from '../../kernel/dialect/schemaRegistry';
import { fieldSpecs } from '../../kernel/dialect/kinds';
import { createI18nProvider } from '../i18n';
import { kindElement } from './kindMap';

afterEach(cleanup);

const MB2 = 2 * 1024 * 1024;

/** A resource schema with one audio property (no widget: `x-upload` alone makes it an upload). */
const schema = {
  $id: 'soundNote',
  type: 'object',
  'x-resource': { name: 'soundNotes' },
  properties: {
    voice: { type: ['string', 'null'], 'x-upload': { types: ['audio'], maxSize: MB2 } },
    clip: { type: ['string', 'null'], 'x-upload': { types: ['video'], maxSize: MB2 } },
  },
} as unknown as ResourceSchema;
const [voice, clip] = fieldSpecs(schema);

/**
 * An mp3: an ID3v2.4 tag header without frames (`ID3`, version 4.0, no flags, size 0), then one MPEG-1
 * layer III frame (header `FF FB 90 64`: 128 kbit/s, 44.1 kHz, no padding, so 417 bytes) of silence.
 */
function mp3Bytes(): Uint8Array {
  const tag = [0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0];
  const frame = new Uint8Array(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return new Uint8Array([...tag, ...frame]);
}
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

const STORED = '/uploads/soundnotes/voice/0f3a.mp3';

/** The console's providers in `lang`, a fake upload call, and the form holding the voice input. */
async function renderInput(lang: 'en' | 'zh') {
  const i18nProvider = createI18nProvider(lang);
  await i18nProvider.ready;
  const upload = vi.fn(async (_file: File, _target?: { resource: string; field: string }) => ({
    url: STORED,
  }));
  const dataProvider = { upload } as never;
  render(
    <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider}>
      <ResourceContextProvider value="soundNotes">
        <Form>{kindElement('Input', voice, schema, { label: 'Voice note' })}</Form>
      </ResourceContextProvider>
      <Notification />
    </AdminContext>,
  );
  const block = await screen.findByTestId('file-input-voice');
  const input = block.querySelector('input[type="file"]') as HTMLInputElement;
  const choose = (bytes: Uint8Array, name: string, type: string) =>
    fireEvent.change(input, { target: { files: [new File([bytes as BlobPart], name, { type })] } });
  return { block, input, upload, choose };
}

describe('the audio group in the schema-driven upload input', () => {
  it('a string property with an audio x-upload and no widget is an upload (kind file)', () => {
    expect(voice.kind).toBe('file');
  });

  for (const lang of ['en', 'zh'] as const)
    it(`offers mp3, wav and wmv, sends a real mp3 and then plays it (${lang})`, async () => {
      const { block, input, upload, choose } = await renderInput(lang);
      expect(input.accept.split(',')).toEqual(
        expect.arrayContaining(['.mp3', 'audio/mpeg', '.wav', 'audio/wav', '.wmv']),
      );
      expect(input.accept).not.toMatch(/\.png|image\//);
      choose(mp3Bytes(), 'voice.mp3', 'audio/mpeg');
      const player = await within(block).findByTestId('file-audio');
      expect(upload).toHaveBeenCalledTimes(1);
      expect(upload.mock.calls[0][0].name).toBe('voice.mp3');
      expect(upload.mock.calls[0][1]).toEqual({ resource: 'soundNotes', field: 'voice' });
      expect(player.tagName).toBe('AUDIO');
      expect(player.hasAttribute('controls')).toBe(true);
      expect(player.getAttribute('src')).toBe(STORED);
      expect(within(block).queryByRole('img')).toBeNull();
    });

  for (const [lang, wrongType, tooLarge] of [
    [
      'en',
      'Voice note: song.mp3 is not an accepted file (audio): not uploaded',
      'Voice note: long.mp3 is larger than 2 MB: not uploaded',
    ],
    ['zh', 'Voice note：song.mp3 不是可接受的文件（音频），未上传', 'Voice note：long.mp3 超过 2 MB，未上传'],
  ] as const)
    it(`refuses before sending, naming the field: not audio by content, or over the limit (${lang})`, async () => {
      const big = new Uint8Array(MB2 + 1);
      big.set(mp3Bytes());
      // A PNG named and typed as an mp3: the content decides, as on the server.
      for (const [bytes, name, message] of [
        [PNG, 'song.mp3', wrongType],
        [big, 'long.mp3', tooLarge],
      ] as const) {
        const { block, upload, choose } = await renderInput(lang);
        choose(bytes, name, 'audio/mpeg');
        expect(await screen.findByText(message)).toBeTruthy();
        expect(upload).not.toHaveBeenCalled();
        expect(within(block).queryByTestId('file-audio')).toBeNull();
        cleanup();
      }
    });
});

describe('show and list display of an upload value', () => {
  /** The display of `field` (voice or clip) of a record whose value is `url`, on a show page or in a list row. */
  async function renderField(url: string, inList: boolean, field = voice) {
    const i18nProvider = createI18nProvider('en');
    await i18nProvider.ready;
    render(
      <AdminContext dataProvider={{} as never} i18nProvider={i18nProvider}>
        <RecordContextProvider value={{ id: 1, [field.source]: url }}>
          {kindElement('Field', field, schema, { inList })}
        </RecordContextProvider>
      </AdminContext>,
    );
  }

  for (const inList of [false, true])
    for (const url of ['/uploads/a/b.mp3', '/uploads/a/b.WAV', '/uploads/a/b.wmv'])
      it(`${url} is an audio player (${inList ? 'list' : 'show'})`, async () => {
        await renderField(url, inList);
        const player = await screen.findByTestId('file-audio');
        expect(player.tagName).toBe('AUDIO');
        expect(player.hasAttribute('controls')).toBe(true);
        expect(player.getAttribute('src')).toBe(url);
        expect(screen.queryByTestId('file-link')).toBeNull();
        expect(screen.queryByTestId('file-video')).toBeNull();
      });

  for (const inList of [false, true])
    for (const url of ['/uploads/a/tour.mp4', '/uploads/a/tour.MKV', '/uploads/a/%E5%B1%95%E5%8E%85.m2v'])
      it(`${url} is a video player (${inList ? 'list' : 'show'})`, async () => {
        await renderField(url, inList, clip);
        const player = await screen.findByTestId('file-video');
        expect(player.tagName).toBe('VIDEO');
        expect(player.hasAttribute('controls')).toBe(true);
        expect(player.getAttribute('src')).toBe(url);
        const name = decodeURIComponent(url.split('/').pop()!);
        expect(player.getAttribute('aria-label')).toBe(`Play ${name}`);
        expect(screen.queryByTestId('file-link')).toBeNull();
        expect(screen.queryByTestId('file-audio')).toBeNull();
      });

  it('an image value is still its thumbnail link, a pdf still a link (no player)', async () => {
    await renderField('/uploads/a/portrait.png', false);
    const link = await screen.findByTestId('file-link');
    expect(link.getAttribute('href')).toBe('/uploads/a/portrait.png');
    expect(link.querySelector('img')?.getAttribute('src')).toBe('/uploads/a/portrait.png');
    cleanup();
    await renderField('/uploads/a/report.pdf', false, clip);
    expect((await screen.findByTestId('file-link')).textContent).toMatch(/PDF/);
    expect(screen.queryByTestId('file-audio')).toBeNull();
    expect(screen.queryByTestId('file-video')).toBeNull();
  });
});
