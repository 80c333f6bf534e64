/**
 * The console's export download (kernel/server/exportRoutes.ts): `GET <getList path>/export?format=…`
 * with the list's filters, sort and order (the getList parameters without paging, `listParams`), the
 * session token (X-Token) and the console's language (Accept-Language: the file's headers and enum labels).
 * The answer is read as a stream so progress can be shown: `X-Total-Count` gives the rows the file will
 * hold; for CSV the rows received are counted (line ends outside quotes), for XLSX (compressed) the bytes.
 * The whole file is then saved under the server's file name. Nothing is truncated: the server streams every
 * matching row.
 */
import type { GetListParams } from 'react-admin';
import { schemaForResource } from '../../kernel/dialect/schemaRegistry';
import { consoleLanguage, getToken } from './httpClient';
import { listParams, toQuery } from './index';

export type ExportFormat = 'csv' | 'xlsx';

/** Progress of an export: rows received (CSV) or bytes received (XLSX), of `total` rows. */
export interface ExportProgress {
  total: number;
  rows?: number;
  bytes: number;
}

/** The export URL of `resource`'s list with the given filter and sort. */
export function exportUrl(
  resource: string,
  params: Pick<GetListParams, 'filter' | 'sort'>,
  format: ExportFormat,
  apiUrl = '',
): string {
  const spec = schemaForResource(resource)['x-endpoints']?.getList;
  if (!spec) throw new Error(`Resource "${resource}" declares no x-endpoints.getList`);
  return `${apiUrl}${spec.path.replace(/\/$/, '')}/export${toQuery({ ...listParams(params, spec), format })}`;
}

/** The `filename` of a Content-Disposition header, or `fallback`. */
const fileNameOf = (disposition: string | null, fallback: string) =>
  /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? fallback;

/**
 * Downloads `url` with progress and saves it; resolves the rows the server said the file holds.
 * @throws Error with the server's message when the call is refused
 */
export async function downloadExport(
  url: string,
  format: ExportFormat,
  onProgress: (p: ExportProgress) => void,
): Promise<number> {
  const headers: Record<string, string> = { 'Accept-Language': consoleLanguage() };
  const token = getToken();
  if (token) headers['X-Token'] = token;
  const res = await fetch(url, { headers });
  if (!res.ok || !res.body) {
    const body = (await res.json().catch(() => ({}))) as { msg?: string };
    throw new Error(body.msg || res.statusText || `HTTP ${res.status}`);
  }
  const total = Number(res.headers.get('x-total-count') ?? 0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let [bytes, lines, quoted] = [0, 0, false];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.length;
    if (format === 'csv')
      for (const b of value) {
        if (b === 0x22) quoted = !quoted;
        else if (b === 0x0a && !quoted) lines++;
      }
    // The header line is not a row.
    onProgress({
      total,
      bytes,
      rows: format === 'csv' ? Math.max(0, Math.min(total, lines - 1)) : undefined,
    });
  }
  const type = res.headers.get('content-type') ?? 'application/octet-stream';
  const blob = new Blob(chunks as BlobPart[], { type });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = fileNameOf(res.headers.get('content-disposition'), `export.${format}`);
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  return total;
}
