/**
 * The header row of an import file against a resource's columns (kernel/server/importJobs.ts), reported at
 * the top of the dry run before any row:
 * - unknown: headers that name no column (neither a field's name nor its label in any language,
 *   tableColumns.ts `columnFor`); their cells are not imported. Columns the file may carry but the import
 *   does not write (read-only and display columns of an export, e.g. "Created") are known, not unknown;
 * - missing: the fields the resource's create variant requires (`<id>.create` `required`) that no header
 *   names: a new row without them is rejected (a row that changes a stored record does not need them).
 * When headers are given and none names a writable column, the file is refused before any row is read
 * ({@link noKnownColumn}): every row would otherwise be rejected field by field as "required".
 */
import { fieldLabel, msg, renderMessage, schemaLabel, type Language } from '../../common/messages/index';
import { buildVariant, schemaForResource } from '../dialect/schemaRegistry';
import { invalidField, type ApiError } from '../../server/errors';
import type { ResourceModel } from './model';
import { columnFor, tableColumns } from './tableColumns';

/** What the header row says (stored with the job's counts). */
export interface ColumnReport {
  /** Headers naming no column, as the file writes them. */
  unknown: string[];
  /** Required fields no header names (field names). */
  missing: string[];
  /** Headers naming a column the import writes. */
  writable: number;
}

/** Headers listed in a message at most; more are counted ("… and 12 more"). */
const LIST = 20;

/** The report of `headers` for `model` (see the module doc). */
export function columnReport(model: ResourceModel, headers: string[]): ColumnReport {
  const columns = tableColumns(model);
  const named = new Set<string>();
  const unknown: string[] = [];
  let writable = 0;
  for (const header of headers) {
    const column = columnFor(columns, header);
    if (!column) {
      unknown.push(header);
      continue;
    }
    named.add(column.name);
    if (!column.display && (!column.prop?.readOnly || column.name === 'id')) writable++;
  }
  const required = (buildVariant(schemaForResource(model.name), 'create').required ?? []) as string[];
  return { unknown, missing: required.filter((f) => !named.has(f)), writable };
}

/** `items` joined for a message, at most {@link LIST} of them. */
function list(items: string[], lang: Language): string {
  const sep = lang === 'zh' ? '、' : ', ';
  const shown = items.slice(0, LIST).join(sep);
  const more = items.length - LIST;
  if (more <= 0) return shown;
  return lang === 'zh' ? `${shown} 等 ${items.length} 列` : `${shown} and ${more} more`;
}

/** A field named for a person editing the file: its label in `lang` and its name. */
const fieldName = (lang: Language, field: string, schemaId: string) => {
  const label = fieldLabel(lang, field, schemaId);
  if (label === field) return field;
  return lang === 'zh' ? `${label}（${field}）` : `${label} (${field})`;
};

/**
 * The sentence at the top of the report in `lang`, e.g. "Unknown columns: foo, bar. Missing required
 * columns: Artwork name (artWorkName)."; empty when every header is known and nothing required is missing.
 */
export function columnText(
  report: Pick<ColumnReport, 'unknown' | 'missing'>,
  schemaId: string,
  lang: Language,
) {
  const parts: string[] = [];
  if (report.unknown.length)
    parts.push(renderMessage(lang, msg('import.columnsUnknown', { columns: list(report.unknown, lang) })));
  if (report.missing.length) {
    const columns = list(
      report.missing.map((f) => fieldName(lang, f, schemaId)),
      lang,
    );
    parts.push(renderMessage(lang, msg('import.columnsMissing', { columns })));
  }
  return parts.join(lang === 'zh' ? '' : ' ');
}

/**
 * The 400 refusing a file none of whose `headers` names a writable column of `model` (field `file`,
 * keyword `columns`): it names the headers found and the columns expected, in each language.
 */
export function noKnownColumn(model: ResourceModel, headers: string[]): ApiError {
  const schemaId = model.schemaId;
  const required = columnReport(model, []).missing;
  const expected = {
    en: list(
      required.map((f) => fieldName('en', f, schemaId)),
      'en',
    ),
    zh: list(
      required.map((f) => fieldName('zh', f, schemaId)),
      'zh',
    ),
  };
  const found = { en: list(headers, 'en'), zh: list(headers, 'zh') };
  const resource = schemaLabel(schemaId, true);
  return invalidField(
    'file',
    'columns',
    `none of its columns is a field of ${resource.en.toLowerCase()} (${found.en}): the first row must name the fields, e.g. ${expected.en}`,
    { resource, columns: found, expected },
  );
}
