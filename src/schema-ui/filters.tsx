/**
 * The filter inputs of a schema's list (views.tsx): free text `q` (always shown) when a field has
 * `x-ui.filter: 'q'`, then per `x-ui.filter: true` field, by kind: a reference picker, an enum select
 * (labelled from `x-enumLabels`), a yes/no/any select for a boolean, and for numbers and dates a value
 * plus the range bounds `<field>_gte` / `<field>_lte` the list call takes (common/schemaRegistry.ts
 * `rangeFields`); a text input otherwise. The values go to the list call's query as typed; the server
 * validates them with the list query's schema.
 */
import type { ReactElement } from 'react';
import {
  AutocompleteInput,
  DateInput,
  NullableBooleanInput,
  NumberInput,
  ReferenceInput,
  SearchInput,
  SelectInput,
  TextInput,
} from 'react-admin';
import { rangeFields, type ResourceSchema } from '../../kernel/dialect/schemaRegistry';
import { generatedResources } from '../generated/resources';
import { useEnumLabel } from './fields';
import { fieldSpecs, type FieldSpec } from '../../kernel/dialect/kinds';

function EnumFilter({ source, prop }: { source: string; prop: FieldSpec['prop'] }) {
  const label = useEnumLabel(source);
  const choices = (prop.enum ?? [])
    .filter((v) => v !== null && v !== '')
    .map((v) => ({ id: v as string | number, name: label(v) }));
  return <SelectInput source={source} choices={choices} />;
}

/** One bound of a range filter: a date or number input named `<field>_gte` or `<field>_lte`. */
function RangeBound({ field, source, label }: { field: FieldSpec; source: string; label: string }) {
  if (field.kind === 'date') return <DateInput source={source} label={label} />;
  if (field.kind === 'integer' || field.kind === 'number')
    return <NumberInput source={source} label={label} step={field.kind === 'integer' ? 1 : undefined} />;
  return <TextInput source={source} label={label} />;
}

/** The filter inputs of `schema`'s list (see the module doc). */
export function listFilters(
  schema: ResourceSchema,
  resource: string,
  translate: (key: string) => string,
): ReactElement[] {
  const specs = fieldSpecs(schema);
  const ranges = new Set(rangeFields(schema));
  const out: ReactElement[] = [];
  if (specs.some((f) => f.prop['x-ui']?.filter === 'q'))
    out.push(<SearchInput key="q" source="q" alwaysOn />);
  for (const f of specs.filter((s) => s.prop['x-ui']?.filter === true)) {
    if (f.kind === 'reference') {
      const reference = f.prop['x-ui']!.reference!;
      const optionText = generatedResources.find((r) => r.name === reference)?.recordRepresentation ?? 'id';
      out.push(
        <ReferenceInput key={f.source} source={f.source} reference={reference}>
          <AutocompleteInput
            optionText={optionText}
            filterToQuery={(q: string) => ({ q })}
            sx={{ minWidth: 240 }}
          />
        </ReferenceInput>,
      );
    } else if (Array.isArray(f.prop.enum))
      out.push(<EnumFilter key={f.source} source={f.source} prop={f.prop} />);
    else if (f.kind === 'boolean') out.push(<NullableBooleanInput key={f.source} source={f.source} />);
    else if (f.kind === 'date') out.push(<DateInput key={f.source} source={f.source} />);
    else if (f.kind === 'integer' || f.kind === 'number')
      out.push(<NumberInput key={f.source} source={f.source} />);
    else out.push(<TextInput key={f.source} source={f.source} />);
    if (ranges.has(f.source))
      for (const bound of ['_gte', '_lte'] as const)
        out.push(
          <RangeBound
            key={`${f.source}${bound}`}
            field={f}
            source={`${f.source}${bound}`}
            // "Price ≥": the field's label (x-i18n, generated messages) and the bound
            label={`${translate(`resources.${resource}.fields.${f.source}`)} ${bound === '_gte' ? '≥' : '≤'}`}
          />,
        );
  }
  return out;
}
