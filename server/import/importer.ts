/**
 * The Tate import pipeline, shared by `npm run import` (scripts/import.ts) and the first-start seed
 * (seed.ts): artists first, then artworks, each read as a stream (readRows.ts), validated
 * (validate.ts), and written in batches, one database transaction per batch. Reading, parsing, the source
 * digest and validation run in a worker thread beside the writing thread (prepare.ts), a few batches
 * ahead; the writing thread does the lookups, the conflict rules and the inserts.
 *
 * Outcomes per row:
 * - imported: valid and new; stored with `sourceId` (artist id / acno) and, for artworks,
 *   `sourceDigest` (SHA-256 of the source row's canonical JSON);
 * - skipped: already stored from the same source row (artworks: same acno and same digest; artists:
 *   same id and the same mapped name and introduction), in the database or earlier in the file.
 *   This makes the import idempotent: a second run imports nothing twice;
 * - rejected: written to the report (JSON Lines, one `ReportEntry` per row) with every reason:
 *   schema rules (validate.ts), `reference` (the primary author is not an imported artist),
 *   `conflict` (the acno, or the Tate id, is already taken by a different row), `json` (unparsable).
 *
 * Atomicity: each batch (default 2,000 rows) is written in one transaction together with the categories
 * (`art_categories`) its artworks introduce. When a batch fails, its transaction rolls back, the batches
 * before it stay committed, and `importTate` throws an {@link ImportBatchError}; re-running resumes
 * (rows already stored are skipped).
 *
 * One door (issue 32): every row imported gets its audit row (server/db/audit.ts), in its batch's
 * transaction, as the API's writes do: actor `opts.actor` (`cli:<OS user>` for `npm run import`,
 * `system` for the first-start seed), the SHA-256 of the stored row and its values (`state`: the
 * schema's properties, as kernel/server/records.ts `stateColumnsOf`), so History starts with the imported
 * record and Revert can restore it. Rows are validated with the registry's own create schemas
 * (validate.ts) before any write, and their plain text is stored as the repository stores it: trimmed
 * and NFC (kernel/dialect/plainText.ts, the rule kernel/server/records.ts `columnValues` applies).
 *
 * Not checked across runs: a Tate id reused by a different acno (the artworks table stores the acno,
 * not Tate's numeric id); within one run it is.
 */
import { appendFile, writeFile } from 'node:fs/promises';
import { CompiledQuery, PostgresAdapter, sql, type Kysely } from 'kysely';
import { nowText, type Database } from '../db/database';
import { AUDIT_TABLE, digestOf, stateText, type WriteActor } from '../db/audit';
import { storedPlainTexts } from '../../kernel/dialect/plainText';
import { schemaForResource } from '../../kernel/dialect/schemaRegistry';
import type { MappedArtwork, MappedAuthor } from './mapping';
import { prepared, preparedInThread, startPrepared } from './prepare';
import type { Reason } from './validate';

/** Counts of one phase (artists or artworks). `read` = rows in the file. */
export interface PhaseSummary {
  read: number;
  imported: number;
  rejected: number;
  skipped: number;
}

export interface ImportSummary {
  artists: PhaseSummary;
  artworks: PhaseSummary;
  /** Category names added to `art_categories`. */
  categoriesAdded: string[];
  /** Wall time of the whole import, in seconds. */
  seconds: number;
  reportFile?: string;
  /** Rows were parsed and validated in a worker thread (else in the importing thread). */
  worker: boolean;
}

/** One line of the report file (JSON Lines). */
export interface ReportEntry {
  kind: 'artist' | 'artwork';
  /** Artist id (number) or artwork acno (string) when the row has one, else null. */
  sourceId: number | string | null;
  /** Tate's numeric artwork id, when the row has one. */
  tateId?: unknown;
  /** 1-based line of the row in the file (0 when the file was read whole). */
  line: number;
  reasons: Reason[];
}

export interface ImportProgress {
  phase: 'artists' | 'artworks';
  bytesRead: number;
  bytesTotal: number;
  summary: PhaseSummary;
}

export interface ImportOptions {
  /** Tate artist rows (JSON array, plain or gzipped), imported first. */
  artistsFile?: string;
  /** Tate artwork rows (JSON array, plain or gzipped). */
  artworksFile?: string;
  /** Where to write the rejected rows (JSON Lines); created or truncated. No report when omitted. */
  reportFile?: string;
  /** Rows per transaction (default 2000: a quarter of the commits of the former 500). */
  batchSize?: number;
  onProgress?: (p: ImportProgress) => void;
  /** Parse and validate in a worker thread beside the writing one (default true; see prepare.ts). */
  worker?: boolean;
  /** Who imports, named in every row's audit entry (default {@link IMPORT_ACTOR}). */
  actor?: WriteActor;
}

/** The audit actor of an import whose caller names none: the server itself. */
export const IMPORT_ACTOR: WriteActor = { accountId: null, account: 'system', call: 'import (Tate)' };

/**
 * A valid mapped record with its plain text as the repository stores it (kernel/dialect/plainText.ts:
 * top-level names trimmed and NFC, names inside JSON fields NFC), so a row imported here and the same
 * values sent through the API are stored identically; null stays null.
 */
function asStored<T extends object>(resource: 'authors' | 'artworks', record: T | null): T | null {
  return record && (storedPlainTexts(schemaForResource(resource), record as Record<string, unknown>) as T);
}

/** The audited columns (`state`) of a resource: its schema's properties, write-only ones left out. */
function stateColumns(resource: 'authors' | 'artworks'): string[] {
  const props = schemaForResource(resource).properties;
  return Object.keys(props).filter((k) => !props[k].writeOnly);
}

/**
 * Adds the audit row of every record of `table` just inserted from `sourceIds` (inside the batch's
 * transaction `trx`): a create by `actor`, with the stored row's digest and state.
 */
async function auditInserted(
  trx: Kysely<Database>,
  actor: WriteActor,
  table: 'authors' | 'artworks',
  sourceIds: (string | number)[],
): Promise<void> {
  const columns = stateColumns(table);
  const time = nowText();
  for (let i = 0; i < sourceIds.length; i += INSERT_CHUNK) {
    const rows = (await trx
      .selectFrom(table)
      .selectAll()
      .where('sourceId', 'in', sourceIds.slice(i, i + INSERT_CHUNK) as never[])
      .orderBy('id')
      .execute()) as Record<string, unknown>[];
    if (rows.length)
      await trx
        .insertInto(AUDIT_TABLE)
        .values(
          rows.map((row) => ({
            time,
            accountId: actor.accountId,
            account: actor.account,
            call: actor.call,
            resource: table,
            recordId: String(row.id),
            before: null,
            after: digestOf(row),
            changed: '[]',
            state: stateText(row, columns),
          })),
        )
        .execute();
  }
}

/** A batch's transaction failed; it was rolled back, earlier batches stay committed. */
export class ImportBatchError extends Error {
  constructor(
    readonly phase: 'artists' | 'artworks',
    readonly firstLine: number,
    readonly lastLine: number,
    readonly summary: ImportSummary,
    cause: unknown,
  ) {
    super(
      `${phase} batch of lines ${firstLine}–${lastLine} failed and was rolled back ` +
        `(earlier batches are committed; re-run to resume): ${(cause as Error)?.message ?? String(cause)}`,
      { cause },
    );
    this.name = 'ImportBatchError';
  }
}

const emptyPhase = (): PhaseSummary => ({ read: 0, imported: 0, rejected: 0, skipped: 0 });

/** Rows per INSERT statement: one statement text (prepared once) serves every full chunk of a table. */
const INSERT_CHUNK = 100;
/**
 * SQL of `INSERT INTO <table> (<columns>) VALUES (...) × n`, by SQL dialect, table, columns and n (a
 * process may import into SQLite and PostgreSQL: `?` and `$1` placeholders are not interchangeable).
 */
const insertSql = new Map<string, string>();

/**
 * Inserts `rows` (all with the same keys, in the same order) into `table` with multi-row INSERTs of
 * {@link INSERT_CHUNK} rows whose SQL is compiled once per dialect, table and size (SQLite prepares each text once,
 * server/db/connect.ts), instead of building a new statement for every batch.
 */
async function insertRows(
  db: Kysely<Database>,
  table: 'authors' | 'artworks',
  rows: Record<string, unknown>[],
) {
  const columns = Object.keys(rows[0]);
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK);
    const dialect = db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
    const key = `${dialect}|${table}|${columns.join(',')}|${chunk.length}`;
    let text = insertSql.get(key);
    if (!text) {
      const placeholder = Object.fromEntries(columns.map((c) => [c, null]));
      text = db
        .insertInto(table)
        .values(chunk.map(() => placeholder) as never)
        .compile().sql;
      insertSql.set(key, text);
    }
    await db.executeQuery(
      CompiledQuery.raw(
        text,
        chunk.flatMap((r) => columns.map((c) => r[c] ?? null)),
      ),
    );
  }
}

const jsonReason = (error: string): Reason => ({ field: 'row', keyword: 'json', message: `row: ${error}` });

/**
 * Imports Tate artists and/or artworks into `db` (see the module doc for outcomes and atomicity).
 * @returns the counts per phase
 * @throws ImportBatchError when a batch's transaction fails; file read errors as they come
 */
export async function importTate(db: Kysely<Database>, opts: ImportOptions): Promise<ImportSummary> {
  const started = performance.now();
  const batchSize = opts.batchSize ?? 2000;
  const actor = opts.actor ?? IMPORT_ACTOR;
  const inWorker = () => void (summary.worker = true);
  const batches: typeof prepared = (file, kind, size, onBytes) =>
    opts.worker === false
      ? preparedInThread(file, kind, size, onBytes)
      : prepared(file, kind, size, onBytes, inWorker);
  const summary: ImportSummary = {
    artists: emptyPhase(),
    artworks: emptyPhase(),
    categoriesAdded: [],
    seconds: 0,
    reportFile: opts.reportFile,
    worker: false,
  };
  const time = nowText();
  if (opts.reportFile) await writeFile(opts.reportFile, '');
  const report = async (entries: ReportEntry[]) => {
    if (opts.reportFile && entries.length)
      await appendFile(opts.reportFile, entries.map((e) => JSON.stringify(e)).join('\n') + '\n');
  };
  const progress = (phase: 'artists' | 'artworks') =>
    opts.onProgress?.({ phase, bytesRead: bytes.read, bytesTotal: bytes.total, summary: summary[phase] });
  let bytes = { read: 0, total: 0 };
  // The artworks' worker starts now, beside the artists phase (prepare.ts startPrepared).
  const artworkBatches =
    opts.artworksFile && opts.worker !== false
      ? startPrepared(
          opts.artworksFile,
          'artworks',
          batchSize,
          (read, total) => {
            bytes = { read, total };
            progress('artworks');
          },
          inWorker,
        )
      : undefined;
  try {
    return await importPhases();
  } finally {
    await artworkBatches?.close();
  }

  async function importPhases(): Promise<ImportSummary> {
    /** Tate artist id → why it was rejected in this run (to explain artworks that reference it). */
    const rejectedArtists = new Map<number, string>();

    if (opts.artistsFile) {
      const phase = summary.artists;
      /** artist id → the mapped author kept in this run (to tell a duplicate from a conflict). */
      const seen = new Map<number, string>();
      for await (const batch of batches(opts.artistsFile, 'artists', batchSize, (read, total) => {
        bytes = { read, total };
        progress('artists');
      })) {
        const rejected: ReportEntry[] = [];
        const toInsert: { sourceId: number; author: MappedAuthor }[] = [];
        const ids = batch.map((r) => (r.isObject ? r.id : undefined)).filter(Number.isInteger) as number[];
        const existing = new Map<number, string>();
        if (ids.length)
          for (const a of await db
            .selectFrom('authors')
            .select(['sourceId', 'authorName', 'introduction'])
            .where('sourceId', 'in', ids)
            .execute())
            existing.set(a.sourceId!, authorKey(a));
        for (const r of batch) {
          phase.read++;
          const sourceId = r.isObject && Number.isInteger(r.id) ? (r.id as number) : null;
          const reject = (reasons: Reason[]) => {
            rejected.push({ kind: 'artist', sourceId, line: r.line, reasons });
            if (sourceId !== null && !seen.has(sourceId) && !existing.has(sourceId))
              rejectedArtists.set(sourceId, reasons.map((x) => x.message).join('; '));
          };
          if (r.error !== undefined) {
            reject([jsonReason(r.error)]);
            continue;
          }
          const record = asStored('authors', r.record as MappedAuthor | null);
          const { reasons } = r;
          if (!record || sourceId === null) {
            reject(reasons);
            continue;
          }
          const key = authorKey(record);
          const stored = existing.get(sourceId) ?? seen.get(sourceId);
          if (stored === key) {
            phase.skipped++;
            continue;
          }
          if (stored !== undefined) {
            rejected.push({
              kind: 'artist',
              sourceId,
              line: r.line,
              reasons: [
                {
                  field: 'id',
                  keyword: 'conflict',
                  message: `id: artist ${sourceId} is already imported with a different name or introduction (not overwritten)`,
                },
              ],
            });
            continue;
          }
          seen.set(sourceId, key);
          rejectedArtists.delete(sourceId);
          toInsert.push({ sourceId, author: record });
        }
        phase.rejected += rejected.length;
        await report(rejected);
        if (toInsert.length) {
          try {
            await db.transaction().execute(async (trx) => {
              await insertRows(
                trx,
                'authors',
                toInsert.map(({ sourceId, author }) => ({
                  authorName: author.authorName as string,
                  introduction: author.introduction,
                  createTime: time,
                  updateTime: time,
                  sourceId,
                })),
              );
              await auditInserted(
                trx,
                actor,
                'authors',
                toInsert.map((r) => r.sourceId),
              );
            });
          } catch (e) {
            for (const { sourceId } of toInsert) seen.delete(sourceId);
            summary.seconds = (performance.now() - started) / 1000;
            throw new ImportBatchError('artists', batch[0].line, batch[batch.length - 1].line, summary, e);
          }
          phase.imported += toInsert.length;
        }
        progress('artists');
      }
    }

    if (opts.artworksFile) {
      const phase = summary.artworks;
      /** Registry author id by Tate artist id (null: no such author stored). */
      const authorBySource = new Map<number, number | null>();
      /** acno → digest of the row stored (or skipped as stored) in this run. */
      const acnoSeen = new Map<string, string>();
      /** Tate artwork id → the acno it was stored under in this run. */
      const tateIdSeen = new Map<number, string>();
      const categories = new Set(
        (await db.selectFrom('art_categories').select('name').execute()).map((c) => c.name),
      );
      const artworkRows =
        artworkBatches?.batches ??
        batches(opts.artworksFile, 'artworks', batchSize, (read, total) => {
          bytes = { read, total };
          progress('artworks');
        });
      for await (const batch of artworkRows) {
        const rows = batch.map((r) => (r.isObject ? r : undefined));
        const wanted = [...new Set(rows.map((r) => r?.artistId).filter((id) => id !== undefined))].filter(
          (id) => !authorBySource.has(id),
        );
        if (wanted.length) {
          for (const id of wanted) authorBySource.set(id, null);
          for (const a of await db
            .selectFrom('authors')
            .select(['id', 'sourceId'])
            .where('sourceId', 'in', wanted)
            .execute())
            authorBySource.set(a.sourceId!, a.id);
        }
        const acnos = [
          ...new Set(
            rows.map((r) => r?.acno).filter((a): a is string => typeof a === 'string' && a.length > 0),
          ),
        ];
        const existing = new Map<string, string | null>();
        if (acnos.length)
          for (const a of await db
            .selectFrom('artworks')
            .select(['sourceId', 'sourceDigest'])
            .where('sourceId', 'in', acnos)
            .execute())
            existing.set(a.sourceId!, a.sourceDigest);

        const rejected: ReportEntry[] = [];
        const toInsert: { acno: string; digest: string; tateId: unknown; record: MappedArtwork }[] = [];
        const newCategories = new Set<string>();
        batch.forEach((r, i) => {
          phase.read++;
          const row = rows[i];
          const acno = typeof row?.acno === 'string' && row.acno ? row.acno : null;
          const entry = (reasons: Reason[]): ReportEntry => ({
            kind: 'artwork',
            sourceId: acno,
            ...(row?.hasId ? { tateId: row.id } : {}),
            line: r.line,
            reasons,
          });
          if (r.error !== undefined || !row) {
            rejected.push(entry(r.error !== undefined ? [jsonReason(r.error)] : r.reasons));
            return;
          }
          const digest = row.digest!;
          const storedDigest =
            acno !== null ? (existing.has(acno) ? existing.get(acno) : acnoSeen.get(acno)) : undefined;
          if (acno !== null && storedDigest === digest) {
            phase.skipped++;
            return;
          }
          const artistId = row.artistId;
          const authorId = artistId === undefined ? undefined : (authorBySource.get(artistId) ?? undefined);
          const reasons = [...row.reasons];
          const record = asStored('artworks', row.record as MappedArtwork | null);
          if (record) record.author = authorId ?? 1;
          if (artistId !== undefined && authorId === undefined) {
            const why = rejectedArtists.get(artistId);
            reasons.push({
              field: 'contributors.0.id',
              target: 'author',
              keyword: 'reference',
              message: why
                ? `contributors.0.id (author): artist ${artistId} was rejected in this import (${why})`
                : `contributors.0.id (author): artist ${artistId} is unknown (not in the database nor in the artists imported)`,
            });
          }
          if (acno !== null && storedDigest !== undefined)
            reasons.push({
              field: 'acno',
              keyword: 'conflict',
              message: `acno: ${acno} is already imported from a different source row (digest ${String(storedDigest).slice(0, 12)}…); not overwritten`,
            });
          const tateId = row.id;
          if (
            Number.isInteger(tateId) &&
            tateIdSeen.has(tateId as number) &&
            tateIdSeen.get(tateId as number) !== acno
          )
            reasons.push({
              field: 'id',
              keyword: 'conflict',
              message: `id: Tate id ${String(tateId)} is already imported in this run under acno ${tateIdSeen.get(tateId as number)}`,
            });
          if (reasons.length || !record || acno === null) {
            rejected.push(entry(reasons));
            return;
          }
          acnoSeen.set(acno, digest);
          if (Number.isInteger(tateId)) tateIdSeen.set(tateId as number, acno);
          const classify = record.classify as string;
          if (!categories.has(classify)) newCategories.add(classify);
          toInsert.push({ acno, digest, tateId, record });
        });
        phase.rejected += rejected.length;
        await report(rejected);
        if (toInsert.length) {
          try {
            await db.transaction().execute(async (trx) => {
              if (newCategories.size)
                await trx
                  .insertInto('art_categories')
                  .values([...newCategories].map((name) => ({ name })))
                  .onConflict((oc) => oc.column('name').doNothing())
                  .execute();
              await insertRows(
                trx,
                'artworks',
                toInsert.map(({ acno, digest, record }) => ({
                  artWorkName: record.artWorkName as string,
                  author: record.author,
                  possessor: record.possessor,
                  classify: record.classify as string,
                  texture: record.texture as string,
                  images: JSON.stringify(record.images),
                  baseInfo: JSON.stringify(record.baseInfo),
                  dealInfo: JSON.stringify(record.dealInfo),
                  createTime: time,
                  updateTime: time,
                  sourceId: acno,
                  sourceDigest: digest,
                })),
              );
              await auditInserted(
                trx,
                actor,
                'artworks',
                toInsert.map((r) => r.acno),
              );
            });
          } catch (e) {
            for (const { acno, tateId } of toInsert) {
              acnoSeen.delete(acno);
              if (Number.isInteger(tateId)) tateIdSeen.delete(tateId as number);
            }
            summary.seconds = (performance.now() - started) / 1000;
            throw new ImportBatchError('artworks', batch[0].line, batch[batch.length - 1].line, summary, e);
          }
          for (const name of newCategories) {
            categories.add(name);
            summary.categoriesAdded.push(name);
          }
          phase.imported += toInsert.length;
        }
        progress('artworks');
      }
    }
    // PostgreSQL, after a bulk load: statistics for the planner (autovacuum gathers them only later), and
    // the artworks' free-text table's index with its pending list merged (`<table>_search`, searchIndex.ts;
    // migration 20261126T1520: every search scans that list).
    if (
      summary.artists.imported + summary.artworks.imported > 0 &&
      db.getExecutor().adapter instanceof PostgresAdapter
    )
      await sql`vacuum (analyze) artworks_search, authors, artworks`.execute(db);
    summary.seconds = (performance.now() - started) / 1000;
    return summary;
  }
}

function authorKey(a: { authorName: unknown; introduction: string | null }): string {
  return JSON.stringify([a.authorName, a.introduction ?? null]);
}

/** The summary line of a phase: `imported N, rejected N, skipped N`. */
export function summaryLine(p: PhaseSummary): string {
  return `imported ${p.imported}, rejected ${p.rejected}, skipped ${p.skipped}`;
}
