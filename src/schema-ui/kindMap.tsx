/**
 * The ONE map from a field kind (kinds.ts) to its display component (`Field`, for lists and show pages)
 * and its input component (`Input`, for create and edit forms). `componentsFor` is the only way in; a
 * kind missing from the map is an explicit error. Per-resource folders override single fields by name
 * (see schemaResource.tsx), never this map.
 */
import type { ComponentType } from 'react';
import { Chip, Stack, Typography } from '@mui/material';
import {
  ArrayField,
  ArrayInput,
  AutocompleteInput,
  BooleanField,
  BooleanInput,
  CheckboxGroupInput,
  Datagrid,
  DateInput,
  FunctionField,
  Labeled,
  NumberField,
  NumberInput,
  PasswordInput,
  ReferenceField,
  ReferenceInput,
  SelectInput,
  SimpleFormIterator,
  TextField,
  TextInput,
  UrlField,
  useGetList,
  useLocaleState,
  useRecordContext,
  useResourceContext,
  useTranslate,
  useWrappedSource,
  type Validator,
} from 'react-admin';
import type { PropertySchema, ResourceSchema } from '../../kernel/dialect/schemaRegistry';
import { generatedResources } from '../generated/resources';
import { categoryLabel } from '../i18n/categories';
import {
  EnumField,
  getPath,
  HashField,
  ImageField,
  ImagesField,
  QrCodeField,
  StepsField,
  useEnumLabel,
} from './fields';
import { fieldSpecs, resolveKind, type FieldSpec, type Kind } from '../../kernel/dialect/kinds';
import { FileField, FileUploadInput } from './files';
import { JsonField, JsonInput, SchemaFromField, SchemaFromInput } from './schemaFrom';
import { lazyComponent } from '../shell/lazy';

/**
 * A validator that accepts everything and carries react-admin's `isRequired` flag: the input's label
 * gets the required mark (*) while the messages stay the form's, from the shared schema validator
 * (validate.ts). From the JSON Schema `required` of the object holding the property.
 */
export const REQUIRED_MARK: Validator = Object.assign(() => undefined, { isRequired: true });

/** `REQUIRED_MARK` when `parent.required` lists `name`, else undefined. */
export function requiredMarkFor(
  parent: { [keyword: string]: unknown } | undefined,
  name: string,
): Validator | undefined {
  const required = parent?.required;
  return Array.isArray(required) && required.includes(name) ? REQUIRED_MARK : undefined;
}

/** Props every kind component receives. `source` is the dotted record path. */
export interface KindProps {
  source: string;
  prop: PropertySchema;
  schema: ResourceSchema;
  /** The label's translation key; `''`: none (an inner list of a list of lists). */
  label?: string;
  /** Rendered in a list row (compact variant). */
  inList?: boolean;
  sortable?: boolean;
  validate?: Validator | Validator[];
}

export interface KindComponents {
  Field: ComponentType<KindProps>;
  Input: ComponentType<KindProps>;
}

const fullWidth = { fullWidth: true } as const;

/** The images input of uploaded pictures (drag-and-drop order, first is main), in its own chunk. */
const UploadImagesInput = lazyComponent<KindProps>(() =>
  import('../resources/artworks/ImagesInput').then((m) => m.default),
);

/** Choices of an enum property, labelled from x-enumLabels (raw value when unlabelled); null left out. */
function useEnumChoices(source: string, prop: PropertySchema) {
  const label = useEnumLabel(source);
  return (prop.enum ?? [])
    .filter((v) => v !== null && v !== '')
    .map((v) => ({ id: v as string | number, name: label(v) }));
}

function EnumInput({ source, prop, label, validate }: KindProps) {
  // Inside an array input (a traceability step) the labels are keyed by the item path without its index.
  const choices = useEnumChoices(useWrappedSource(source).replace(/\.\d+(?=\.|$)/g, ''), prop);
  const nullable =
    (prop.enum ?? []).includes(null) || ([] as string[]).concat(prop.type ?? []).includes('null');
  return (
    <SelectInput
      source={source}
      label={label}
      choices={choices}
      parse={(v: unknown) => (v === '' ? null : v)}
      emptyText={nullable ? '—' : undefined}
      validate={validate}
      {...fullWidth}
    />
  );
}

function SwitchInput({ source, label, validate }: KindProps) {
  return (
    <BooleanInput
      source={source}
      label={label}
      validate={validate}
      format={(v: unknown) => v === 1 || v === true}
      parse={(b: boolean) => (b ? 1 : 0)}
    />
  );
}

function referenceRepresentation(reference: string): string {
  return generatedResources.find((r) => r.name === reference)?.recordRepresentation ?? 'id';
}

function ReferenceDisplay({ source, prop, label, sortable }: KindProps) {
  const reference = prop['x-ui']!.reference!;
  return (
    <ReferenceField source={source} reference={reference} label={label} sortable={sortable} link="show">
      <TextField source={referenceRepresentation(reference)} />
    </ReferenceField>
  );
}

/** Autocomplete over the referenced resource's list call, searching with its free-text `q`. */
function ReferenceSelect({ source, prop, label, validate }: KindProps) {
  const reference = prop['x-ui']!.reference!;
  return (
    <ReferenceInput source={source} reference={reference}>
      <AutocompleteInput
        label={label}
        optionText={referenceRepresentation(reference)}
        filterToQuery={(q: string) => ({ q })}
        parse={(v: unknown) => (v === '' || v == null ? null : v)}
        validate={validate}
        {...fullWidth}
      />
    </ReferenceInput>
  );
}

/**
 * The artwork category: an autocomplete over `GET /artmanager/artSort/artcateList`; a new name typed by
 * the operator is accepted (categories derive from the artworks stored).
 */
function CategoryInput({ source, label, validate }: KindProps) {
  const { data = [] } = useGetList('artCategories', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'id', order: 'ASC' },
  });
  const record = useRecordContext();
  const current = getPath(record, source);
  const choices = data.map((c) => ({ id: c.name as string, name: c.name as string }));
  if (typeof current === 'string' && current && !choices.some((c) => c.id === current))
    choices.push({ id: current, name: current });
  return (
    <AutocompleteInput
      source={source}
      label={label}
      choices={choices}
      onCreate={(name?: string) => {
        const n = (name ?? '').trim();
        return { id: n, name: n };
      }}
      validate={validate}
      {...fullWidth}
    />
  );
}

/** Inputs for the properties of an object (a section) or of one array item; sources are dotted/relative. */
function NestedInputs({
  schema,
  prop,
  prefix,
  labelPrefix,
}: {
  schema: ResourceSchema;
  prop: PropertySchema;
  prefix: string;
  labelPrefix: string;
}) {
  const resource = useResourceContext();
  return (
    <>
      {fieldSpecs(schema, prop.properties ?? {}).map((f) =>
        kindElement('Input', f, schema, {
          source: prefix ? `${prefix}.${f.name}` : f.name,
          label: `resources.${resource}.fields.${labelPrefix}.${f.name}`,
          validate: requiredMarkFor(prop, f.name),
        }),
      )}
    </>
  );
}

function ObjectInput({ source, prop, schema }: KindProps) {
  return (
    <Stack sx={{ width: '100%' }}>
      <NestedInputs schema={schema} prop={prop} prefix={source} labelPrefix={source} />
    </Stack>
  );
}

function ObjectField({ source, prop, schema }: KindProps) {
  const resource = useResourceContext();
  return (
    <Stack spacing={1}>
      {fieldSpecs(schema, prop.properties ?? {}, source).map((f) => {
        const { Field } = componentsFor(f.kind);
        return (
          <Labeled key={f.source} label={`resources.${resource}.fields.${f.source}`}>
            <Field source={f.source} prop={f.prop} schema={schema} />
          </Labeled>
        );
      })}
    </Stack>
  );
}

/**
 * The record path of `source` in the form without array indexes (`steps.0.parts` → `steps.parts`): the
 * key of its labels (codegen keys nested labels by it), also for an input inside an array item.
 */
function useLabelPath(source: string): string {
  return useWrappedSource(source).replace(/\.\d+(?=\.|$)/g, '');
}

function ObjectListInput({ source, prop, schema, label, validate }: KindProps) {
  const labelPrefix = useLabelPath(source);
  // items that name their own widget (e.g. `schemaFrom` parameters): each item is edited by it
  if (prop.items?.['x-ui']?.widget) return <ItemsInput {...{ source, prop, schema, label, validate }} />;
  return (
    <ArrayInput source={source} label={label} validate={validate}>
      <SimpleFormIterator inline>
        <NestedInputs schema={schema} prop={prop.items ?? {}} prefix="" labelPrefix={labelPrefix} />
      </SimpleFormIterator>
    </ArrayInput>
  );
}

/**
 * A list whose every item is edited by the input of the items' own kind, with no label of its own: a list
 * of lists (kind `listList`: strings, numbers, enum values, objects, or lists again), of booleans
 * (`booleanList`: a switch each), of JSON values (`jsonList`: items of several types or of none, each typed
 * as JSON text), or of objects whose items name a widget. An added item starts empty: `[]` for a list, `{}`
 * for an object, `false` for a boolean, empty text for a JSON value.
 */
function ItemsInput({ source, prop, schema, label, validate }: KindProps) {
  const items = prop.items ?? {};
  const kind = resolveKind(items, source);
  const { Input } = componentsFor(kind);
  const list = ([] as string[]).concat(items.type ?? []).includes('array');
  const empty = () => (kind === 'json' ? '' : kind === 'boolean' ? false : list ? [] : {});
  return (
    <ArrayInput source={source} label={label} validate={validate}>
      <SimpleFormIterator disableReordering={false} getItemDefaults={(item: unknown) => item ?? empty()}>
        <Input source="" prop={items} schema={schema} label="" />
      </SimpleFormIterator>
    </ArrayInput>
  );
}

/** A list of lists shown one inner list a line, its values comma-separated (enum values by label). */
function ListListField({ source, prop }: KindProps) {
  const record = useRecordContext();
  const enumLabel = useEnumLabel(source);
  let leaf = prop.items ?? {};
  while (leaf.items) leaf = leaf.items;
  const labelled = Array.isArray(leaf.enum);
  const v = getPath(record, source);
  if (!Array.isArray(v)) return null;
  const text = (x: unknown): string =>
    Array.isArray(x)
      ? `[${x.map(text).join(', ')}]`
      : x !== null && typeof x === 'object'
        ? JSON.stringify(x)
        : labelled
          ? enumLabel(x)
          : String(x);
  return (
    <Stack spacing={0.5}>
      {v.map((inner, i) => (
        <Typography key={i} variant="body2">
          {Array.isArray(inner) ? inner.map(text).join(', ') : text(inner)}
        </Typography>
      ))}
    </Stack>
  );
}

function ObjectListField(props: KindProps) {
  const { source, prop, schema, label } = props;
  const resource = useResourceContext();
  // items that name their own widget (e.g. `schemaFrom` parameters) have no columns: shown as JSON
  if (prop.items?.['x-ui']?.widget) return <JsonField {...props} />;
  return (
    <ArrayField source={source} label={label}>
      <Datagrid bulkActionButtons={false} rowClick={false}>
        {fieldSpecs(schema, prop.items?.properties ?? {}).map((f) =>
          kindElement('Field', f, schema, {
            source: f.name,
            label: `resources.${resource}.fields.${source}.${f.name}`,
            inList: true,
          }),
        )}
      </Datagrid>
    </ArrayField>
  );
}

function StringListInput({ source, label, validate }: KindProps) {
  return (
    <ArrayInput source={source} label={label} validate={validate}>
      <SimpleFormIterator inline disableReordering={false}>
        <TextInput source="" label={false} {...fullWidth} />
      </SimpleFormIterator>
    </ArrayInput>
  );
}

/** An array of numbers (integers or not): one number input per item. */
function NumberListInput({ source, prop, label, validate }: KindProps) {
  const integer = typesOfItems(prop).includes('integer');
  return (
    <ArrayInput source={source} label={label} validate={validate}>
      <SimpleFormIterator inline disableReordering={false}>
        <NumberInput source="" label={false} step={integer ? 1 : undefined} />
      </SimpleFormIterator>
    </ArrayInput>
  );
}

const typesOfItems = (prop: PropertySchema) => ([] as string[]).concat(prop.items?.type ?? []);

function StringListField({ source }: KindProps) {
  const record = useRecordContext();
  const v = getPath(record, source);
  return <Typography variant="body2">{Array.isArray(v) ? v.join(', ') : ''}</Typography>;
}

/** A list of booleans: each value as a chip reading "Yes" or "No" in the console's language. */
function BooleanListField({ source }: KindProps) {
  const record = useRecordContext();
  const translate = useTranslate();
  const v = getPath(record, source);
  if (!Array.isArray(v)) return null;
  return (
    <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
      {v.map((x, i) => (
        <Chip key={i} size="small" label={translate(x === true ? 'ra.boolean.true' : 'ra.boolean.false')} />
      ))}
    </Stack>
  );
}

/** The values of an array of enum values (an account's roles), as labelled chips. */
function EnumListField({ source }: KindProps) {
  const record = useRecordContext();
  const label = useEnumLabel(source);
  const v = getPath(record, source);
  if (!Array.isArray(v)) return null;
  return (
    <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
      {v.map((x) => (
        <Chip key={String(x)} size="small" label={label(x)} />
      ))}
    </Stack>
  );
}

/** Checkboxes over the items' enum, labelled from the property's x-enumLabels. */
function EnumListInput({ source, prop, label }: KindProps) {
  const choices = useEnumChoices(useLabelPath(source), prop.items ?? {});
  return <CheckboxGroupInput source={source} label={label} choices={choices} />;
}

function LongTextField({ source, inList }: KindProps) {
  const record = useRecordContext();
  const translate = useTranslate();
  const v = getPath(record, source);
  if (typeof v !== 'string') return null;
  const text = inList && v.length > 80 ? `${v.slice(0, 80)}…` : v;
  return (
    <Typography
      variant="body2"
      sx={{ whiteSpace: 'pre-wrap' }}
      title={inList ? v : translate('ra.action.show')}
    >
      {text}
    </Typography>
  );
}

/** A category, its display name in the console's language (src/i18n/categories.ts). */
function CategoryField(props: KindProps) {
  const [locale] = useLocaleState();
  return (
    <FunctionField
      source={props.source}
      label={props.label}
      sortBy={props.sortable === false ? undefined : props.source}
      sortable={props.sortable}
      render={(r: Record<string, unknown>) => categoryLabel(r?.[props.source] as string | null, locale)}
    />
  );
}

const text = (props: KindProps) => (
  <TextField source={props.source} label={props.label} sortable={props.sortable} />
);
const textInput = (props: KindProps) => (
  <TextInput source={props.source} label={props.label} validate={props.validate} {...fullWidth} />
);

/** THE map. Keys must equal `KINDS` (checked by schema-ui.test.ts). */
export const kindMap: Record<Kind, KindComponents> = {
  text: { Field: text, Input: textInput },
  textarea: {
    Field: LongTextField,
    Input: (p) => (
      <TextInput
        source={p.source}
        label={p.label}
        validate={p.validate}
        multiline
        minRows={3}
        {...fullWidth}
      />
    ),
  },
  integer: {
    Field: text,
    Input: (p) => (
      <NumberInput source={p.source} label={p.label} validate={p.validate} step={1} {...fullWidth} />
    ),
  },
  number: {
    Field: (p) => <NumberField source={p.source} label={p.label} sortable={p.sortable} />,
    Input: (p) => <NumberInput source={p.source} label={p.label} validate={p.validate} {...fullWidth} />,
  },
  boolean: {
    Field: (p) => <BooleanField source={p.source} label={p.label} />,
    Input: (p) => <BooleanInput source={p.source} label={p.label} validate={p.validate} />,
  },
  enum: { Field: (p) => <EnumField {...p} />, Input: EnumInput },
  chip: { Field: (p) => <EnumField {...p} chip />, Input: EnumInput },
  switch: { Field: (p) => <EnumField {...p} />, Input: SwitchInput },
  reference: { Field: ReferenceDisplay, Input: ReferenceSelect },
  datetime: { Field: text, Input: textInput },
  // A calendar date (format `date`): the browser's date picker; the value stays the string `YYYY-MM-DD`.
  date: {
    Field: text,
    Input: (p) => <DateInput source={p.source} label={p.label} validate={p.validate} {...fullWidth} />,
  },
  url: {
    Field: (p) => (
      <UrlField
        source={p.source}
        label={p.label}
        target="_blank"
        rel="noreferrer"
        onClick={(e) => e.stopPropagation()}
      />
    ),
    Input: (p) => (
      <TextInput source={p.source} label={p.label} validate={p.validate} type="url" {...fullWidth} />
    ),
  },
  email: {
    Field: text,
    Input: (p) => (
      <TextInput source={p.source} label={p.label} validate={p.validate} type="email" {...fullWidth} />
    ),
  },
  // A property declaring x-upload is uploaded (files.tsx); otherwise its URL is typed.
  image: {
    Field: (p) => <ImageField {...p} />,
    Input: (p) => (p.prop['x-upload'] ? <FileUploadInput {...p} /> : textInput(p)),
  },
  file: { Field: FileField, Input: FileUploadInput },
  // Uploaded images (x-upload): the drag-and-drop images input, loaded with the form that shows it.
  images: {
    Field: (p) => <ImagesField {...p} />,
    Input: (p) => (p.prop['x-upload'] ? <UploadImagesInput {...p} /> : <StringListInput {...p} />),
  },
  hash: { Field: (p) => <HashField {...p} />, Input: textInput },
  qrcode: { Field: (p) => (p.inList ? text(p) : <QrCodeField {...p} />), Input: textInput },
  category: { Field: CategoryField, Input: CategoryInput },
  steps: { Field: (p) => <StepsField {...p} />, Input: ObjectListInput },
  object: { Field: ObjectField, Input: ObjectInput },
  objectList: { Field: ObjectListField, Input: ObjectListInput },
  stringList: { Field: StringListField, Input: StringListInput },
  numberList: { Field: StringListField, Input: NumberListInput },
  enumList: { Field: EnumListField, Input: EnumListInput },
  booleanList: { Field: BooleanListField, Input: ItemsInput },
  listList: { Field: ListListField, Input: ItemsInput },
  // items of several types or of none: each a JSON value, the list shown formatted
  jsonList: { Field: JsonField, Input: ItemsInput },
  // A write-only secret: never shown; typed in a masked input (autocomplete off: it is another account's).
  password: {
    Field: () => null,
    Input: (p) => (
      <PasswordInput source={p.source} label={p.label} autoComplete="new-password" {...fullWidth} />
    ),
  },
  json: { Field: JsonField, Input: JsonInput },
  schemaFrom: { Field: SchemaFromField, Input: SchemaFromInput },
};

/** The components of `kind`; throws for a kind the map lacks. */
export function componentsFor(kind: Kind | string): KindComponents {
  const c = (kindMap as Record<string, KindComponents>)[kind];
  if (!c) throw new Error(`No component for field kind "${kind}" in src/schema-ui/kindMap.tsx`);
  return c;
}

/**
 * The element of field spec `f`: `component` (by default its kind's `part`, `Field` or `Input`) with the
 * spec's source, property schema and `schema`, plus `extra` (which may set another `source`, e.g. a
 * prefixed path); keyed by its source.
 */
export function kindElement(
  part: keyof KindComponents,
  f: FieldSpec,
  schema: ResourceSchema,
  extra: Partial<KindProps> = {},
  component: ComponentType<KindProps> = componentsFor(f.kind)[part],
) {
  const Component = component;
  const source = extra.source ?? f.source;
  return <Component key={source} prop={f.prop} schema={schema} {...extra} source={source} />;
}
