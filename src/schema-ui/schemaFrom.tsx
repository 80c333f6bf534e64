/**
 * Field kinds whose shape is data, not schema (kernel/dialect/keywords.ts):
 * - `schemaFrom` (`x-ui.widget: "schemaFrom"` on a property with `x-schemaFrom: {reference, field}`): the
 *   inputs of an object whose JSON Schema is stored in the record the form's `reference` field points at
 *   (a contract's `params` from its template's `paramsSchema`): one input per parameter (integer, number,
 *   boolean, string or a choice of its `enum`), labelled by the parameter's own `x-i18n` in the console's
 *   language, validated (by the form's record-level validator, validate.ts) with that same schema by
 *   @cfworker/json-schema (a draft-07 validator that
 *   compiles nothing, so the console's CSP keeps out 'unsafe-eval'); the server checks the same schema
 *   with ajv (kernel/server/schemaFrom.ts). The display lists each parameter with its label.
 * - `json`: a JSON value shown formatted, typed as JSON text (a template's `paramsSchema`).
 * Messages: the keyword and its limit read from the parameter's schema, translated like every form
 * message (src/i18n/validation.ts `messageFor`).
 */
import { Box, Stack, Typography } from '@mui/material';
import { Validator, type OutputUnit } from '@cfworker/json-schema';
import {
  BooleanInput,
  Labeled,
  NumberInput,
  SelectInput,
  TextInput,
  useGetOne,
  useLocaleState,
  useRecordContext,
  useResourceContext,
  useTranslate,
  type Validator as RaValidator,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { FieldError } from '../../common/envelope';
import type { PropertySchema, ResourceSchema } from '../../kernel/dialect/schemaRegistry';
import { messageFor, type RaMessage } from '../i18n/validation';
import { getPath } from './fields';
import { REQUIRED_MARK, type KindProps } from './kindMap';

/** A parameter of a stored object schema (schemas/contractTemplate.schema.json `definitions.parameter`). */
export interface ParamSchema {
  type: 'string' | 'integer' | 'number' | 'boolean';
  enum?: unknown[];
  default?: unknown;
  'x-i18n'?: { en?: string; zh?: string };
  [keyword: string]: unknown;
}

/** A stored object schema of parameters. */
export interface ParamsSchema {
  type: 'object';
  properties: Record<string, ParamSchema>;
  required?: string[];
}

/** The `x-schemaFrom` of a property: the reference property, the resource it names, the schema field. */
export function schemaFromOf(schema: ResourceSchema, prop: PropertySchema) {
  const spec = prop['x-schemaFrom'] as { reference: string; field: string };
  const resource = schema.properties[spec.reference]?.['x-references']?.resource as string;
  return { ...spec, resource };
}

/** The label of parameter `name` in `locale` (its `x-i18n`), else the name. */
export function paramLabel(p: ParamSchema | undefined, name: string, locale: string): string {
  const l = p?.['x-i18n'] as Record<string, string | undefined> | undefined;
  return l?.[locale] ?? l?.en ?? name;
}

/** The value as it is sent: parameters left empty (null, '') are absent. */
export function cleanParams(value: unknown): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== null && v !== '' && v !== undefined),
  );
}

const LIMITS = new Set([
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
]);

/**
 * The first error of each parameter of `value` under `schema`, as envelope `FieldError`s at
 * `<prefix>.<name>` with the keyword and params ajv would give (`limit`, `type`, `allowedValues`,
 * `missingProperty`, `additionalProperty`), so the form shows the server's messages.
 */
export function paramFieldErrors(schema: ParamsSchema, value: unknown, prefix: string): FieldError[] {
  const result = new Validator(schema as object, '7', false).validate(cleanParams(value));
  const out = new Map<string, FieldError>();
  for (const u of result.errors as OutputUnit[]) {
    let name = decodeURIComponent(u.instanceLocation.replace(/^#\/?/, '')).split('/')[0];
    const keyword = u.keyword;
    let params: Record<string, unknown> = {};
    if (!name && keyword === 'required') {
      name = /"([^"]+)"/.exec(u.error)?.[1] ?? '';
      params = { missingProperty: name };
    } else if (!name && keyword === 'additionalProperties') {
      name = /"([^"]+)"/.exec(u.error)?.[1] ?? '';
      params = { additionalProperty: name };
    } else if (name && (keyword === 'properties' || keyword === 'additionalProperties')) continue;
    const p = schema.properties[name];
    if (!name || out.has(name)) continue;
    if (LIMITS.has(keyword)) params = { limit: p?.[keyword] };
    else if (keyword === 'type') params = { type: p?.type };
    else if (keyword === 'enum') params = { allowedValues: p?.enum };
    const field = `${prefix}.${name}`;
    out.set(name, { field, keyword, params, message: `${field}: ${u.error}` });
  }
  return [...out.values()];
}

/** {@link paramFieldErrors} as react-admin messages by parameter name. */
export function paramErrors(schema: ParamsSchema, value: unknown): Record<string, RaMessage> {
  return Object.fromEntries(
    paramFieldErrors(schema, value, 'params').map((e) => [
      e.field.slice('params.'.length),
      messageFor(e.keyword, e.params, e.message),
    ]),
  );
}

/**
 * The referenced schemas the form has loaded, by `<resource>:<id>:<field>`: react-admin runs one
 * record-level validator (src/schema-ui/validate.ts), which reads the one the form shows from here.
 */
const loaded = new Map<string, ParamsSchema>();

/** The loaded schema of field `field` of record `id` of `resource`, if the form has it. */
export function loadedSchema(resource: string, id: unknown, field: string): ParamsSchema | undefined {
  return id === null || id === undefined ? undefined : loaded.get(`${resource}:${String(id)}:${field}`);
}

const fullWidth = { fullWidth: true } as const;
const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** One parameter's input (see the module doc). */
function ParamInput({
  source,
  name,
  p,
  label,
  validate,
}: {
  source: string;
  name: string;
  p: ParamSchema;
  label: string;
  validate: RaValidator[];
}) {
  // `source` '' inside a list's item (kindMap.tsx ItemsInput): the parameter is the item's own property
  const common = { source: source ? `${source}.${name}` : name, label, validate, defaultValue: p.default };
  if (Array.isArray(p.enum))
    return (
      <SelectInput
        {...common}
        choices={p.enum.map((v) => ({ id: v as string, name: String(v) }))}
        parse={emptyToUndefined}
        {...fullWidth}
      />
    );
  if (p.type === 'boolean') return <BooleanInput {...common} />;
  if (p.type === 'integer' || p.type === 'number')
    return (
      <NumberInput
        {...common}
        step={p.type === 'integer' ? 1 : 'any'}
        parse={emptyToUndefined}
        {...fullWidth}
      />
    );
  return <TextInput {...common} parse={emptyToUndefined} {...fullWidth} />;
}

/** The inputs of an `x-schemaFrom` object (see the module doc). */
export function SchemaFromInput({ source, prop, schema }: KindProps) {
  const { reference, field, resource } = schemaFromOf(schema, prop);
  const refId = useWatch({ name: reference }) as number | null | undefined;
  const { data } = useGetOne(
    resource,
    { id: refId as number },
    { enabled: refId != null && refId !== ('' as never) },
  );
  const [locale] = useLocaleState();
  const translate = useTranslate();
  const current = useResourceContext();
  const params = (refId != null ? data?.[field] : undefined) as ParamsSchema | undefined;
  // The form's record-level validator (validate.ts) checks the parameters with this schema.
  if (params) loaded.set(`${resource}:${String(refId)}:${field}`, params);
  const required = new Set(params?.required ?? []);
  if (!params) {
    const refLabel = translate(`resources.${current}.fields.${reference}`);
    return (
      <Typography variant="body2" color="text.secondary" sx={{ my: 1 }} data-testid="schema-from-empty">
        {translate('baas.schemaFrom.pick_first', { field: refLabel })}
      </Typography>
    );
  }
  return (
    // Keyed by the referenced record: choosing another template renders its own inputs afresh.
    <Stack key={String(refId)} sx={{ width: '100%' }} data-testid="schema-from">
      {Object.entries(params.properties).map(([name, p]) => (
        <ParamInput
          key={name}
          source={source}
          name={name}
          p={p}
          label={paramLabel(p, name, locale)}
          validate={required.has(name) ? [REQUIRED_MARK] : []}
        />
      ))}
    </Stack>
  );
}

/** The parameters of a record, each under its label from the referenced schema. */
export function SchemaFromField({ source, prop, schema, inList }: KindProps) {
  const record = useRecordContext();
  const { reference, field, resource } = schemaFromOf(schema, prop);
  const refId = record?.[reference] as number | undefined;
  const { data } = useGetOne(resource, { id: refId as number }, { enabled: refId != null && !inList });
  const [locale] = useLocaleState();
  const translate = useTranslate();
  const value = getPath(record, source) as Record<string, unknown> | undefined;
  const params = data?.[field] as ParamsSchema | undefined;
  const names = Object.keys(value ?? {});
  if (inList) return <Typography variant="body2">{JSON.stringify(value ?? {})}</Typography>;
  if (!names.length) return <Typography variant="body2">{translate('baas.schemaFrom.none')}</Typography>;
  return (
    <Stack spacing={1}>
      {names.map((name) => (
        <Labeled key={name} label={paramLabel(params?.properties[name], name, locale)}>
          <Typography variant="body2" data-testid={`param-${name}`}>
            {String(value![name])}
          </Typography>
        </Labeled>
      ))}
    </Stack>
  );
}

/** A JSON value, formatted. */
export function JsonField({ source }: KindProps) {
  const record = useRecordContext();
  const v = getPath(record, source);
  return (
    <Box
      component="pre"
      sx={{
        m: 0,
        fontSize: 12,
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-word',
        maxHeight: 360,
        overflow: 'auto',
      }}
    >
      {v === undefined ? '' : JSON.stringify(v, null, 2)}
    </Box>
  );
}

/** A JSON value typed as text: parsed when it is JSON, else kept as typed (the validator names it). */
export function JsonInput({ source, label, validate }: KindProps) {
  return (
    <TextInput
      source={source}
      label={label}
      validate={validate}
      multiline
      minRows={6}
      format={(v: unknown) =>
        typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v, null, 2)
      }
      parse={(text: string) => {
        try {
          return JSON.parse(text);
        } catch {
          return text;
        }
      }}
      {...fullWidth}
    />
  );
}
