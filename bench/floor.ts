/**
 * The bench's floor: a bare `node:http` + better-sqlite3 handler answering the artworks list page, the
 * free-text search and the detail from the same SQLite file as the server, as fast as this stack allows
 * with none of our layers (no Fastify, no Kysely, no validation, no role gate, no kernel).
 *
 * It does what the server's answer needs and nothing more: the same select (every stored artwork
 * property, the author's name by the same left join), the same FTS5 trigram match for `q` (paged by the FTS table, as the kernel does), the same
 * order (id descending) and paging, the JSON columns parsed and re-serialised inside the same envelope
 * `{code: 0, msg: 'success', data}`, and the total of each distinct query counted once and then cached
 * (the data does not change during the bench). Statements are prepared once.
 *
 *   POST /list   body {page?, pageSize?, q?}  → {list, total}   (as POST /artmanager/artwork/searchArtworkList)
 *   GET  /detail?artId=N                     → the record       (as GET /artmanager/artwork/ArtInfoByArtId)
 *
 * Run: `npx tsx bench/floor.ts <baas.sqlite> <port>` (bench/run.ts starts it); prints `floor listening`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import SQLite from 'better-sqlite3';
import { resourceModels } from '../server/kernel/model';

const [file, portText] = process.argv.slice(2);
if (!file || !portText) {
  console.error('usage: tsx bench/floor.ts <baas.sqlite> <port>');
  process.exit(2);
}
const model = resourceModels().get('artworks')!;
const db = new SQLite(file, { readonly: true, fileMustExist: true });
db.pragma('journal_mode = WAL');

const columns = model.stored.map((c) => `a."${c}"`).join(', ');
const select = `SELECT ${columns}, au."authorName" AS "authorName" FROM artworks a LEFT JOIN authors au ON au.id = a.author`;
const ftsWhere = `a.id IN (SELECT rowid FROM artworks_fts WHERE artworks_fts MATCH ?)`;
const pageAll = db.prepare(`${select} ORDER BY a.id DESC LIMIT ? OFFSET ?`);
// As the kernel (server/kernel/repository.ts): the FTS5 table pages by rowid (= id) itself.
const pageText = db.prepare(
  `${select} WHERE a.id IN (SELECT rowid FROM artworks_fts WHERE artworks_fts MATCH ? ORDER BY rowid DESC LIMIT ? OFFSET ?) ORDER BY a.id DESC`,
);
const countAll = db.prepare('SELECT count(*) AS n FROM artworks').pluck();
const countText = db.prepare(`SELECT count(*) AS n FROM artworks a WHERE ${ftsWhere}`).pluck();
const one = db.prepare(`${select} WHERE a.id = ?`);
const jsonColumns = Object.entries(model.json);
const totals = new Map<string, number>();

function record(row: Record<string, unknown>): Record<string, unknown> {
  for (const [c, empty] of jsonColumns) {
    const v = row[c];
    row[c] = typeof v === 'string' && v ? JSON.parse(v) : empty && JSON.parse(empty);
  }
  return row;
}

function send(res: ServerResponse, status: number, data: unknown): void {
  const body = JSON.stringify({ code: status === 200 ? 0 : status, msg: 'success', data });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
}

const server = createServer((req, res) => {
  const url = req.url ?? '';
  if (req.method === 'GET' && url.startsWith('/detail?')) {
    const id = Number(new URLSearchParams(url.slice(8)).get('artId'));
    const row = one.get(id) as Record<string, unknown> | undefined;
    return row ? send(res, 200, record(row)) : send(res, 404, null);
  }
  if (req.method === 'POST' && url === '/list') {
    bodyOf(req).then(
      (b) => {
        const pageSize = Math.min(Math.max(Number(b.pageSize ?? 20), 1), 100);
        const offset = (Math.max(Number(b.page ?? 1), 1) - 1) * pageSize;
        const q = typeof b.q === 'string' ? b.q.trim() : '';
        const phrase = `"${q.replace(/"/g, '""')}"`;
        let total = totals.get(q);
        if (total === undefined) {
          total = (q ? countText.get(phrase) : countAll.get()) as number;
          totals.set(q, total);
        }
        const rows = (q ? pageText.all(phrase, pageSize, offset) : pageAll.all(pageSize, offset)) as Record<
          string,
          unknown
        >[];
        send(res, 200, { list: rows.map(record), total });
      },
      () => send(res, 400, null),
    );
    return;
  }
  send(res, 404, null);
});
server.listen(Number(portText), '127.0.0.1', () => console.log('floor listening'));
for (const s of ['SIGINT', 'SIGTERM'] as const) process.once(s, () => server.close(() => process.exit(0)));
