/**
 * Page object: the registry's upload and code screens: file inputs of `x-upload` properties (portrait,
 * avatar, certificates, traceability attachments), the artwork images input (tiles, drag and drop), the
 * two-step add's stepper, the author's mini-program code (QR image, PNG download) and the unsaved-changes
 * confirmation. Built on ConsolePage (navigation, inputs, save).
 */
import { readFileSync } from 'node:fs';
import type { Dialog, Locator, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import jsQR from 'jsqr';
import { NOT_KEPT, shownLocator, shownTestId } from '../helpers/shownView';
import { ConsolePage } from './ConsolePage';

/** A PNG file of `size`×`size` pixels in one colour (distinct colours give distinct files). */
export function pngFile(name: string, rgb: [number, number, number], size = 48) {
  const png = new PNG({ width: size, height: size });
  for (let i = 0; i < size * size; i++) png.data.set([...rgb, 255], i * 4);
  return { name, mimeType: 'image/png', buffer: PNG.sync.write(png) };
}

/** A small valid one-page PDF file. */
export function pdfFile(name: string) {
  const body =
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';
  return { name, mimeType: 'application/pdf', buffer: Buffer.from(body) };
}

export class RegistryPage extends ConsolePage {
  constructor(page: Page, baseUrl: string) {
    super(page, baseUrl);
  }

  /** The upload input block of a file property by its source (`portrait`, `traceability.0.attachment`). */
  fileInput(source: string): Locator {
    return shownLocator(this.page, `[data-testid="file-input-${source}"]`);
  }

  /** Uploads `file` into the file property `source` and waits for its preview link. */
  async uploadFile(source: string, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
    const block = this.fileInput(source);
    await block.locator('input[type="file"]').setInputFiles(file);
    await block.getByTestId('file-link').waitFor();
  }

  /** The image tiles of the artwork images input, in order. */
  tiles(): Locator {
    return shownTestId(this.page, 'image-tile');
  }

  /** The URLs of the tiles, in order. */
  async tileUrls(): Promise<string[]> {
    return this.tiles().evaluateAll((els) => els.map((e) => e.getAttribute('data-url') ?? ''));
  }

  /** Picks `files` in the images input's file dialog. */
  async addImages(files: { name: string; mimeType: string; buffer: Buffer }[]): Promise<void> {
    await shownTestId(this.page, 'images-file').setInputFiles(files);
  }

  /** Drags the tile at `from` onto the tile at `to` with the mouse (small steps, as a hand would). */
  async dragTile(from: number, to: number): Promise<void> {
    const a = (await this.tiles().nth(from).boundingBox())!;
    const b = (await this.tiles().nth(to).boundingBox())!;
    await this.page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2, { steps: 5 });
    await this.page.mouse.move(b.x + b.width / 4, b.y + b.height / 2, { steps: 25 });
    await this.page.mouse.move(b.x + b.width / 4 - 2, b.y + b.height / 2, { steps: 3 });
    await this.page.mouse.up();
  }

  /**
   * Moves the tile at `from` by `by` places with the keyboard, as dnd-kit's keyboard sensor reads it: one
   * place per pick-up (focus, Space, an arrow, Space). Each key waits for the state it acts on (picked up:
   * `aria-pressed`; moved over the neighbour: its transform changed; dropped: the order changed), so a busy
   * machine does not lose a key.
   */
  async keyboardMove(from: number, by: number): Promise<void> {
    const url = (await this.tiles().nth(from).getAttribute('data-url'))!;
    const tile = shownLocator(this.page, `[data-testid="image-tile"][data-url="${url}"]`);
    const pressed = shownLocator(this.page, '[data-testid="image-tile"][aria-pressed="true"]');
    let at = from;
    for (let i = 0; i < Math.abs(by); i++) {
      await tile.focus();
      await this.page.keyboard.press('Space');
      await pressed.waitFor();
      const before = await tile.evaluate((e) => (e as HTMLElement).style.transform);
      // dnd-kit's live region announces the droppable the item is over: dropping before it has done so
      // (a loaded machine) would drop on the old place.
      const region = shownLocator(this.page, '[id^="DndLiveRegion"]');
      const announced = await region.innerText();
      await this.page.keyboard.press(by < 0 ? 'ArrowLeft' : 'ArrowRight');
      await this.page.waitForFunction(
        ([u, t, k]) =>
          (document.querySelector(`[data-testid="image-tile"][data-url="${u}"]${k}`) as HTMLElement | null)
            ?.style.transform !== t,
        [url, before, NOT_KEPT] as const,
      );
      await this.page.waitForFunction(
        ([a, k]) => {
          const text = document.querySelector(`[id^="DndLiveRegion"]${k}`)?.textContent ?? '';
          return text !== a && text.includes('moved over');
        },
        [announced, NOT_KEPT] as const,
      );
      await this.page.keyboard.press('Space');
      await pressed.waitFor({ state: 'detached' });
      at += by < 0 ? -1 : 1;
      await this.page.waitForFunction(
        ([u, n, k]) =>
          document.querySelectorAll(`[data-testid="image-tile"]${k}`)[n]?.getAttribute('data-url') === u,
        [url, at, NOT_KEPT] as const,
      );
    }
  }

  /** The two-step add's stepper: the label of the active step. */
  async activeStep(): Promise<string> {
    return shownTestId(this.page, 'two-step').locator('[data-active="true"]').first().innerText();
  }

  /** Clicks "Generate" on the author's mini-program tab and waits for a QR code of a new code. */
  async generateWxCode(): Promise<void> {
    // The panel first (it shows the code, if any, with the record); then the code without waiting for it:
    // an author without one has no code text (waiting for it cost the action timeout, 30 s).
    await shownTestId(this.page, 'wx-code').waitFor();
    const code = shownTestId(this.page, 'wx-code-text');
    const before = (await code.count()) ? await code.innerText() : '';
    await shownTestId(this.page, 'wx-code').getByRole('button').first().click();
    await shownTestId(this.page, 'wx-qr').waitFor();
    await this.page.waitForFunction(
      ([b, k]) => (document.querySelector(`[data-testid="wx-code-text"]${k}`)?.textContent ?? '') !== b,
      [before, NOT_KEPT] as const,
    );
  }

  /** Downloads the QR PNG and decodes it (jsQR over pngjs pixels): the text the code carries. */
  async downloadAndDecodeQr(): Promise<{ text: string; filename: string }> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      shownTestId(this.page, 'wx-download').click(),
    ]);
    const png = PNG.sync.read(readFileSync((await download.path())!));
    const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    if (!code) throw new Error('the downloaded PNG holds no readable QR code');
    return { text: code.data, filename: download.suggestedFilename() };
  }

  /**
   * Runs `navigate` (a click leaving the page) and answers the confirmation the console asks for (null when
   * none came), dismissing it (stay) unless `accept`.
   */
  async leaveDirtyForm(navigate: () => Promise<void>, accept = false): Promise<string | null> {
    // The dialog is answered as soon as it opens, not after `navigate` returns: a click waits for the
    // navigation it scheduled, which the open confirm() blocks (that deadlocked until the timeout).
    const answered = this.page
      .waitForEvent('dialog', { timeout: 15_000 })
      .then(async (d: Dialog) => {
        const message = d.message();
        await (accept ? d.accept() : d.dismiss());
        return message;
      })
      .catch(() => null);
    await navigate();
    return answered;
  }
}
