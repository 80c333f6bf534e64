/**
 * The generic, schema-driven react-admin views of a resource: List (columns from `x-ui.list`, sort from
 * `x-ui.sortable`, filters from `x-ui.filter` with free text `q`, pagination), Show (one tab per
 * `x-ui.section`), Edit and Create (the same tabs as inputs, validated with the shared ajv schema). What
 * a resource can do (create, edit, delete, bulk delete) follows its `x-endpoints`. Deleting asks for a
 * confirmation that says it cannot be undone (`mutationMode="pessimistic"`).
 *
 * Small screens: under 600 px (MUI `sm`) a list is react-admin's `SimpleList` of cards built from the same
 * `x-ui.list` columns (the record's name first, its picture as the avatar, the other columns below); from
 * 600 px the table scrolls sideways inside the page. Empty values read "—" in lists and show pages;
 * required fields (JSON Schema `required`) carry react-admin's required mark in forms. A schema with
 * `x-chain` gets a put-on-chain button on each row and a bulk "put on chain" (src/schema-ui/chain.tsx).
 *
 * `overrides` replace the component of a field by its dotted source: `{ fields: { images: C } }` for
 * display, `{ inputs: { images: C } }` for forms, where C receives the same KindProps.
 */
import type { ComponentType, ReactElement, ReactNode } from 'react';
import type { Theme } from '@mui/material/styles';
import { CleanAfterSave } from './cleanAfterSave';
import { Box, Stack, Typography, useMediaQuery } from '@mui/material';
import {
  BulkDeleteButton,
  Create,
  CreateButton,
  Pagination,
  DatagridConfigurable,
  DeleteButton,
  Edit,
  EditButton,
  FilterButton,
  List,
  ListButton,
  SaveButton,
  SimpleList,
  Show,
  ShowButton,
  TabbedForm,
  TabbedShowLayout,
  TabbedShowLayoutTabs,
  TabbedFormTabs,
  Toolbar,
  TopToolbar,
  useBasename,
  useCanAccess,
  useCreatePath,
  useRecordContext,
  useResourceContext,
  useTranslate,
  type RedirectionSideEffect,
  type ListProps,
} from 'react-admin';
import { Step, StepLabel, Stepper } from '@mui/material';
import { schemaForResource, type ResourceSchema } from '../../kernel/dialect/schemaRegistry';
import { componentsFor, kindElement, requiredMarkFor, type KindProps } from './kindMap';
import { getPath } from './fields';
import { listFilters } from './filters';
import { BulkPutOnChainButton, chainSpecOf, PutOnChainRowButton } from './chain';
import { fieldSpecs, MAIN_SECTION, sectionsOf, type FieldSpec } from '../../kernel/dialect/kinds';
import { schemaValidator } from './validate';
import { capabilities } from './capabilities';
import { ArchiveButton } from './archive';
import { HistoryTab } from './history';
import { ColumnsButton, LastViewSync, SavedViewsButton } from './savedViews';
import { generatedResources } from '../generated/resources';
import { ExportMenu } from './exportMenu';
import { ImportButton } from './importDialog';
import { isFinal } from '../../kernel/dialect/frozen';
import { useCreateSuccess } from './createSuccess';
import { ConflictDialog, ConflictProvider, useConflictOnError, useDeleteConflictOnError } from './conflict';
import { useRecordQueryOptions } from './recordQuery';
import { ChangedElsewhere, useEditQueryOptions } from '../live/ChangedElsewhere';

export interface SchemaOverrides {
  /** Display components by source. */
  fields?: Record<string, ComponentType<KindProps>>;
  /** Input components by source. */
  inputs?: Record<string, ComponentType<KindProps>>;
  /** Extra buttons in the list rows (after show/edit) and the show page's top toolbar. */
  rowActions?: ReactNode;
  showActions?: ReactNode;
  /** Extra tabs appended to the show page. */
  showTabs?: ReactElement[];
  /** A panel beside the show page (react-admin `aside`), e.g. the on-chain proof. */
  showAside?: ReactElement;
}

export { capabilities };

/**
 * The translation key of a section tab's label: the schema's `x-sections` label (generated
 * `resources.<name>.sections.<section>`), else the label of the property of that name, else (`main`) the
 * console's "Main".
 */
const sectionLabel = (schema: ResourceSchema, resource: string, section: string) =>
  schema['x-sections']?.[section]
    ? `resources.${resource}.sections.${section}`
    : section in schema.properties
      ? `resources.${resource}.fields.${section}`
      : `baas.sections.${section}`;

/** Kinds that show their own empty state (a picture placeholder, "no image", the steps' "—"). */
const OWN_EMPTY_STATE = new Set(['image', 'images', 'steps', 'object']);

/** Whether a record value is empty for display: null, undefined, blank text or an empty list. */
export function isEmptyValue(v: unknown): boolean {
  return v == null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);
}

/** A field that reads "—" when its value is empty, else renders `field`. */
function DashWhenEmpty({ field: Field, ...props }: KindProps & { field: ComponentType<KindProps> }) {
  const record = useRecordContext();
  if (record && isEmptyValue(getPath(record, props.source)))
    return (
      <Typography component="span" variant="body2" data-empty="true">
        —
      </Typography>
    );
  return <Field {...props} />;
}

function displayOf(
  f: FieldSpec,
  schema: ResourceSchema,
  overrides: SchemaOverrides | undefined,
  extra: Partial<KindProps> = {},
) {
  const own = overrides?.fields?.[f.source];
  const Field = own ?? componentsFor(f.kind).Field;
  // A resource's own field component decides what an empty value shows (e.g. a Generate button).
  if (own || OWN_EMPTY_STATE.has(f.kind))
    return <Field key={f.source} source={f.source} prop={f.prop} schema={schema} {...extra} />;
  return (
    <DashWhenEmpty key={f.source} field={Field} source={f.source} prop={f.prop} schema={schema} {...extra} />
  );
}

/** The input of `f`; `parent` is the object holding it (the schema, or a section object) for `required`. */
function inputOf(
  f: FieldSpec,
  schema: ResourceSchema,
  overrides: SchemaOverrides | undefined,
  parent: { [keyword: string]: unknown } = schema,
) {
  return kindElement(
    'Input',
    f,
    schema,
    { validate: requiredMarkFor(parent, f.name) },
    overrides?.inputs?.[f.source],
  );
}

/** Delete, after a confirmation; a refused stale revision shows the record as stored now (conflict.tsx). */
function DeleteWithConfirm() {
  const resource = useResourceContext() ?? '';
  const onError = useDeleteConflictOnError(resource);
  return (
    <DeleteButton
      mutationMode="pessimistic"
      mutationOptions={{ onError }}
      confirmTitle="baas.message.delete_title"
      confirmContent="baas.message.delete_irreversible"
      onClick={(e: React.MouseEvent) => e.stopPropagation()}
    />
  );
}

function BulkDeleteWithConfirm() {
  return (
    <BulkDeleteButton
      mutationMode="pessimistic"
      confirmTitle="baas.message.bulk_delete_title"
      confirmContent="baas.message.bulk_delete_irreversible"
    />
  );
}

/** The list's toolbar: the filter button (the `x-ui.filter: true` fields not always shown), create, import (importDialog.tsx), export (exportMenu.tsx). */
function ListActions({ canCreate, canFilter }: { canCreate: boolean; canFilter: boolean }) {
  // Under 600 px react-admin shows CreateButton as a floating button and the toolbar would be a nearly
  // empty band above the search box: no toolbar there, only the saved views menu beside the search.
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  if (small)
    return (
      <>
        <LastViewSync />
        {/* Saved views on phones too; no column chooser: rows are cards there, not columns. */}
        <SavedViewsButton />
        {/* Import too: an operator on a phone may have the spreadsheet there. */}
        {canCreate && <ImportButton />}
        {canCreate && <CreateButton />}
      </>
    );
  return (
    <TopToolbar>
      <LastViewSync />
      {canFilter && <FilterButton />}
      {canCreate && <CreateButton />}
      {canCreate && <ImportButton />}
      <ExportMenu />
      <SavedViewsButton />
      <ColumnsButton />
    </TopToolbar>
  );
}

/** The bulk actions of a list: put on chain (schemas with `x-chain`) and delete (with `deleteMany`). */
function BulkActions({ chain, canDelete }: { chain: boolean; canDelete: boolean }) {
  return (
    <>
      {chain && <BulkPutOnChainButton />}
      {canDelete && <BulkDeleteWithConfirm />}
    </>
  );
}

/**
 * A list row as a card (under 600 px): the record's name (`recordRepresentation`, else the first text
 * column) as the title, the picture column as the avatar, every other list column below as
 * "label: value", the id left out (it is in the address of the record's page).
 */
function cardParts(
  schema: ResourceSchema,
  resource: string,
  columns: FieldSpec[],
  overrides?: SchemaOverrides,
) {
  const rep = generatedResources.find((r) => r.name === resource)?.recordRepresentation;
  const picture = columns.find((f) => f.kind === 'image' || f.kind === 'images');
  const title = columns.find((f) => f.source === rep) ?? columns.find((f) => f.kind === 'text');
  const rest = columns.filter((f) => f !== picture && f !== title && f.source !== 'id');
  return {
    primary: title ? displayOf(title, schema, overrides, { inList: true }) : undefined,
    avatar: picture ? displayOf(picture, schema, overrides, { inList: true }) : undefined,
    secondary: (
      <Stack component="span" spacing={0.25} sx={{ mt: 0.5 }}>
        {rest.map((f) => (
          <CardLine key={f.source} resource={resource} f={f}>
            {displayOf(f, schema, overrides, { inList: true })}
          </CardLine>
        ))}
      </Stack>
    ),
  };
}

function CardLine({ resource, f, children }: { resource: string; f: FieldSpec; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box component="span" sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
      <Typography component="span" variant="caption" color="text.secondary">
        {translate(`resources.${resource}.fields.${f.source}`)}
      </Typography>
      {children}
    </Box>
  );
}

/** The generic list of `resource`. */
export function SchemaList({
  resource,
  overrides,
  ...rest
}: { resource: string; overrides?: SchemaOverrides } & Partial<ListProps>) {
  const schema = schemaForResource(resource);
  const can = capabilities(schema);
  const chain = !!chainSpecOf(schema);
  // The rows get selection boxes for the bulk delete only when the user's roles admit that call
  // (authProvider canAccess, x-endpoints.deleteMany.roles): an empty bulk toolbar otherwise.
  const { canAccess: mayDelete } = useCanAccess({ resource, action: 'delete' });
  const bulkDelete = can.deleteMany && mayDelete === true;
  // A final record (x-frozen) cannot be deleted: its row offers no selection box.
  const frozen = generatedResources.find((r) => r.name === resource)?.frozen;
  const selectable = frozen ? (record: Record<string, unknown>) => !isFinal(frozen, record) : undefined;
  const columns = fieldSpecs(schema).filter((f) => f.prop['x-ui']?.list);
  const sortable = (f: FieldSpec) => f.source === 'id' || !!f.prop['x-ui']?.sortable;
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const card = small ? cardParts(schema, resource, columns, overrides) : undefined;
  const translate = useTranslate();
  return (
    <List
      resource={resource}
      filters={listFilters(schema, resource, translate)}
      sort={{ field: 'id', order: 'DESC' }}
      perPage={20}
      // The API serves at most 100 rows a page (docs/api.md); 20 must be one of the choices.
      pagination={<Pagination rowsPerPageOptions={[10, 20, 50, 100]} />}
      actions={
        <ListActions
          canCreate={can.create}
          canFilter={fieldSpecs(schema).some((f) => f.prop['x-ui']?.filter === true)}
        />
      }
      // The table scrolls sideways inside the page instead of being cut off by it.
      sx={{ '& .RaList-main': { minWidth: 0 } }}
      {...rest}
    >
      {card ? (
        <SimpleList
          primaryText={card.primary}
          secondaryText={card.secondary}
          leftIcon={card.avatar ? () => card.avatar : undefined}
          rowClick={can.show ? 'show' : false}
        />
      ) : (
        <DatagridConfigurable
          rowClick={can.show ? 'show' : false}
          bulkActionButtons={
            chain || bulkDelete ? <BulkActions chain={chain} canDelete={bulkDelete} /> : false
          }
          isRowSelectable={chain ? undefined : selectable}
        >
          {columns.map((f) => displayOf(f, schema, overrides, { inList: true, sortable: sortable(f) }))}
          {chain && <PutOnChainRowButton />}
          {can.edit && <EditButton />}
          {schema['x-archive'] === true && <ArchiveButton />}
          {overrides?.rowActions}
        </DatagridConfigurable>
      )}
    </List>
  );
}

function ShowActions({ extra }: { extra?: ReactNode }) {
  const resource = useResourceContext()!;
  const can = capabilities(schemaForResource(resource));
  return (
    <TopToolbar>
      <ListButton />
      {extra}
      {can.edit && <EditButton />}
      {schemaForResource(resource)['x-archive'] === true && <ArchiveButton />}
      {can.delete && <DeleteWithConfirm />}
    </TopToolbar>
  );
}

function RecordTitle() {
  const record = useRecordContext();
  const resource = useResourceContext()!;
  const translate = useTranslate();
  const rep = generatedResources.find((r) => r.name === resource)?.recordRepresentation;
  const name = translate(`resources.${resource}.name`, { smart_count: 1 });
  return (
    <span>
      {name} {record ? (rep && record[rep] ? `“${record[rep]}”` : `#${record.id}`) : ''}
    </span>
  );
}

/**
 * The show page's frame: the record beside its aside panel from 900 px (md) up; under that, the aside
 * goes below the record at full width (a fixed-width aside would otherwise squeeze the record to
 * nothing on a 375 px phone).
 */
const SHOW_LAYOUT = (theme: Theme) => ({
  '& .RaShow-card': { minWidth: 0 },
  [theme.breakpoints.down('md')]: {
    '& .RaShow-main': { flexDirection: 'column' },
    '& .RaShow-main > :not(.RaShow-card)': { width: 'auto', ml: 0, mt: 2, alignSelf: 'stretch' },
  },
});

/**
 * The tab strip of the show and edit pages wraps onto more lines instead of scrolling: every tab, History
 * last, stays in sight without the scroll arrows (issue 21). The sliding indicator cannot follow a tab to
 * a second line, so the selected tab is underlined itself.
 */
const WRAPPING_TABS = {
  '& .MuiTabs-flexContainer': { flexWrap: 'wrap' },
  '& .MuiTabs-indicator': { display: 'none' },
  '& .MuiTab-root.Mui-selected': { boxShadow: 'inset 0 -2px 0 currentColor' },
} as const;

/** The generic show page: one tab per section; an object section lists its own fields. */
export function SchemaShow({ resource, overrides }: { resource: string; overrides?: SchemaOverrides }) {
  const schema = schemaForResource(resource);
  const queryOptions = useRecordQueryOptions(resource);
  return (
    <Show
      resource={resource}
      queryOptions={queryOptions}
      title={<RecordTitle />}
      actions={<ShowActions extra={overrides?.showActions} />}
      aside={overrides?.showAside}
      sx={SHOW_LAYOUT}
    >
      <TabbedShowLayout tabs={<TabbedShowLayoutTabs sx={WRAPPING_TABS} />}>
        {sectionTabs(TabbedShowLayout.Tab, sectionsOf(schema), schema, resource, overrides, 'display')}
        {overrides?.showTabs}
        {schema['x-storage'] && (
          <TabbedShowLayout.Tab label="schemaUi.history.tab" path="history">
            <HistoryTab />
          </TabbedShowLayout.Tab>
        )}
      </TabbedShowLayout>
    </Show>
  );
}

/**
 * One `Tab` (TabbedShowLayout's or TabbedForm's) per section, labelled from the schema, at the section's
 * path (the main section at the base path), holding its displays or inputs (`sectionContent`).
 */
function sectionTabs(
  Tab: ComponentType<{ label: string; path?: string; children: ReactNode }>,
  sections: { name: string; fields: FieldSpec[] }[],
  schema: ResourceSchema,
  resource: string,
  overrides: SchemaOverrides | undefined,
  as: 'display' | 'input',
) {
  return sections.map((s) => (
    <Tab
      key={s.name}
      label={sectionLabel(schema, resource, s.name)}
      path={s.name === MAIN_SECTION ? undefined : s.name}
    >
      {sectionContent(s.fields, s.name, schema, overrides, as)}
    </Tab>
  ));
}

/** A section that is exactly one object property shows that object's fields directly (each labelled). */
function sectionContent(
  fields: FieldSpec[],
  section: string,
  schema: ResourceSchema,
  overrides: SchemaOverrides | undefined,
  as: 'display' | 'input',
) {
  const only =
    fields.length === 1 && fields[0].source === section && fields[0].kind === 'object'
      ? fields[0]
      : undefined;
  const list = only ? fieldSpecs(schema, only.prop.properties ?? {}, only.source) : fields;
  // A write-only property (an account's password) is typed in forms, never shown.
  if (as === 'display')
    return list.filter((f) => !f.prop.writeOnly).map((f) => displayOf(f, schema, overrides));
  return list
    .filter((f) => !f.prop.readOnly)
    .map((f) => inputOf(f, schema, overrides, only ? only.prop : schema));
}

/** The form's reset options (see `SchemaForm`); one object, so react-admin's reset effect does not rerun. */
const KEEP_DIRTY_VALUES = { keepDirtyValues: true } as const;

function FormToolbar({ canDelete, resource }: { canDelete: boolean; resource: string }) {
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <CleanAfterSave />
      <ConflictDialog resource={resource} />
      <SaveButton />
      {canDelete && <DeleteWithConfirm />}
    </Toolbar>
  );
}

function SchemaForm({
  schema,
  resource,
  mode,
  overrides,
  defaultValues,
  onlyMain = false,
}: {
  schema: ResourceSchema;
  resource: string;
  mode: 'create' | 'update';
  overrides?: SchemaOverrides;
  defaultValues?: Record<string, unknown>;
  /** Step one of a two-step add: the main section only. */
  onlyMain?: boolean;
}) {
  const can = capabilities(schema);
  const sections = sectionsOf(schema)
    .map((s) => ({ ...s, fields: s.fields.filter((f) => !f.prop.readOnly) }))
    .filter((s) => s.fields.length > 0 && (!onlyMain || s.name === MAIN_SECTION));
  return (
    <TabbedForm
      // Leaving with unsaved edits (any in-app navigation: sidebar, tags, links; or closing) asks first.
      warnWhenUnsavedChanges
      tabs={<TabbedFormTabs sx={WRAPPING_TABS} />}
      validate={schemaValidator(schema, mode)}
      defaultValues={defaultValues}
      toolbar={<FormToolbar canDelete={mode === 'update' && can.delete} resource={resource} />}
      mode="onBlur"
      reValidateMode="onChange"
      // A kept page (src/layout/keepAlive.tsx) runs its effects again when shown, and react-admin's form
      // resets to the record then: the fields typed in and not saved keep their values (and stay dirty).
      resetOptions={KEEP_DIRTY_VALUES}
    >
      {sectionTabs(TabbedForm.Tab, sections, schema, resource, overrides, 'input')}
    </TabbedForm>
  );
}

/**
 * The generic edit page (pessimistic: the server's verdict, field errors included, is awaited); a save
 * over a record changed since it was opened gets the conflict view (conflict.tsx).
 */
export function SchemaEdit({ resource, overrides }: { resource: string; overrides?: SchemaOverrides }) {
  const schema = schemaForResource(resource);
  const queryOptions = useRecordQueryOptions(resource);
  // A save refused because the record changed since (409) opens the conflict view (conflict.tsx).
  const { onError, state } = useConflictOnError(resource);
  // Live updates: the record is not reloaded under the form; a change made elsewhere is said (src/live).
  const liveOptions = useEditQueryOptions();
  return (
    <Edit
      resource={resource}
      queryOptions={{ ...queryOptions, ...liveOptions }}
      title={<RecordTitle />}
      mutationMode="pessimistic"
      mutationOptions={{ onError }}
      redirect="show"
      actions={
        <TopToolbar>
          <ShowButton />
          <ListButton />
        </TopToolbar>
      }
    >
      {schema['x-resource']?.twoStep && <TwoStepHeader active={1} />}
      <ChangedElsewhere />
      <ConflictProvider value={state}>
        <SchemaForm schema={schema} resource={resource} mode="update" overrides={overrides} />
      </ConflictProvider>
    </Edit>
  );
}

/** Step one / step two of a two-step add (`x-resource.twoStep`), above the form. */
export function TwoStepHeader({ active }: { active: 0 | 1 }) {
  const translate = useTranslate();
  return (
    <Stepper activeStep={active} sx={{ px: 2, pt: 2 }} data-testid="two-step">
      <Step data-active={active === 0}>
        <StepLabel>{translate('registry.steps.one')}</StepLabel>
      </Step>
      <Step data-active={active === 1}>
        <StepLabel>{translate('registry.steps.two')}</StepLabel>
      </Step>
    </Stepper>
  );
}

/**
 * The generic create page. With `x-resource.twoStep` it is step one: the main section only (main
 * information and images); saving leads to the edit page's first other section (step two).
 */
export function SchemaCreate({ resource, overrides }: { resource: string; overrides?: SchemaOverrides }) {
  const schema = schemaForResource(resource);
  const createPath = useCreatePath();
  const basename = useBasename();
  const twoStep = !!schema['x-resource']?.twoStep;
  const stepTwo = sectionsOf(schema).find(
    (s) => s.name !== MAIN_SECTION && s.fields.some((f) => !f.prop.readOnly),
  );
  const defaults = Object.fromEntries(
    Object.entries(schema.properties)
      .filter(([, p]) => p.default !== undefined && !p.readOnly)
      .map(([k, p]) => [k, p.default]),
  );
  const redirect: RedirectionSideEffect =
    twoStep && stepTwo
      ? (_r?: string, id?: unknown) =>
          `${createPath({ resource, id: id as string, type: 'edit' }).slice(basename.length)}/${stepTwo.name}`
      : 'show';
  // Saved: notified, redirected, and the add page's tab closed (createSuccess.ts).
  const onSuccess = useCreateSuccess(resource, redirect);
  return (
    <Create
      resource={resource}
      redirect={redirect}
      mutationOptions={{ onSuccess }}
      mutationMode="pessimistic"
    >
      {twoStep && <TwoStepHeader active={0} />}
      <SchemaForm
        schema={schema}
        resource={resource}
        mode="create"
        overrides={overrides}
        defaultValues={defaults}
        onlyMain={twoStep}
      />
    </Create>
  );
}
