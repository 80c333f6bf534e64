/**
 * Audio files by their content, as common/fileTypes.ts `detectFileKind` recognises them (the product's
 * audio group: mp3, wav, wmv), each unique by a random tail: for the upload API tests.
 * - mp3: an ID3v2.4 tag header without frames (`ID3`, version 4.0, no flags, size 0) then an MPEG-1 layer
 *   III frame header `FF FB 90 64` (ISO/IEC 11172-3 section 2.4.1.3: 128 kbit/s, 44.1 kHz, a 417-byte
 *   frame); or the bare frame without a tag;
 * - wav: RIFF container of form type `WAVE`;
 * - wmv: the ASF header object's GUID.
 */
import { randomBytes } from 'node:crypto';

/** One MPEG-1 layer III frame: its header, then 413 random bytes (417 in all). */
const frame = () => Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), randomBytes(413)]);
/** An mp3 with an ID3v2 tag. */
export const mp3Id3 = () => Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]), frame()]);
/** An mp3 without a tag. */
export const mp3Bare = frame;
export const wav = () =>
  Buffer.concat([
    Buffer.from('RIFF'),
    Buffer.from([0x24, 0, 0, 0]),
    Buffer.from('WAVEfmt '),
    randomBytes(100),
  ]);
export const wmv = () =>
  Buffer.concat([Buffer.from('3026b2758e66cf11a6d900aa0062ce6c', 'hex'), randomBytes(100)]);
