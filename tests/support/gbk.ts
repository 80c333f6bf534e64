/**
 * `gbkBytes(text)`: `text` encoded in GBK (code page 936), as Excel saves a CSV on a Chinese Windows, for
 * tests of the import's encoding detection. Node has no GBK encoder (TextEncoder is UTF-8 only), so the
 * table is built once from the WHATWG GB18030 decoder: every two-byte sequence (lead 0x81-0xFE, trail
 * 0x40-0xFE but 0x7F) decoded to its character, reversed. ASCII is itself; a character outside GBK throws.
 */
let table: Map<string, number> | undefined;

function gbkTable(): Map<string, number> {
  if (table) return table;
  table = new Map();
  const decoder = new TextDecoder('gbk', { fatal: true });
  for (let lead = 0x81; lead <= 0xfe; lead++)
    for (let trail = 0x40; trail <= 0xfe; trail++) {
      if (trail === 0x7f) continue;
      try {
        const ch = decoder.decode(Uint8Array.of(lead, trail));
        if (!table.has(ch)) table.set(ch, (lead << 8) | trail);
      } catch {
        // not a GBK sequence
      }
    }
  return table;
}

/** `text` in GBK bytes. @throws Error naming a character GBK has no bytes for */
export function gbkBytes(text: string): Buffer {
  const map = gbkTable();
  const out: number[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x80) {
      out.push(code);
      continue;
    }
    const pair = map.get(ch);
    if (pair === undefined) throw new Error(`"${ch}" has no GBK bytes`);
    out.push(pair >> 8, pair & 0xff);
  }
  return Buffer.from(out);
}
