/**
 * `schemaResource(name, overrides)`: the react-admin resource config object (`{ list, show, edit,
 * create, icon, recordRepresentation }`, spread into `<Resource>`) built from the generic schema views.
 * Only the views the schema's `x-endpoints` support are present; the icon comes from `x-resource.icon`.
 * The views are split off the entry chunk: they load with the first of them shown (src/shell/lazy.tsx).
 */
import type { ComponentType, ReactNode } from 'react';
import ListAlt from '@mui/icons-material/ListAlt';
import { schemaForResource } from '../../common/schemaRegistry';
import { iconNamed } from '../layout/icons';
import { lazyComponent } from '../shell/lazy';
import { capabilities } from './capabilities';
import type { SchemaOverrides } from './views';

interface ViewProps {
  resource: string;
  overrides?: SchemaOverrides;
}

export interface ResourceConfig {
  name: string;
  list?: ComponentType;
  show?: ComponentType;
  edit?: ComponentType;
  create?: ComponentType;
  icon: ComponentType;
  recordRepresentation?: string;
  /** Extra routes under the resource path (react-admin `<Resource>` children). */
  children?: ReactNode;
}

/** The config of `name`, with `overrides` applied to every generated view. */
export function schemaResource(
  name: string,
  overrides?: SchemaOverrides,
  extra: Partial<ResourceConfig> = {},
): ResourceConfig {
  const schema = schemaForResource(name);
  const can = capabilities(schema);
  const iconName = schema['x-resource']?.icon;
  // Codegen imports every icon a schema names (src/generated/icons.ts) and refuses unknown names.
  const icon = (iconName && iconNamed(iconName)) || ListAlt;
  // The views (and the kind map, form validators, fields they use) load with the first view shown.
  const view = (pick: (views: typeof import('./views')) => ComponentType<ViewProps>) =>
    lazyComponent(async () => {
      const View = pick(await import('./views'));
      return () => <View resource={name} overrides={overrides} />;
    });
  const list = view((v) => v.SchemaList);
  const show = view((v) => v.SchemaShow);
  const edit = view((v) => v.SchemaEdit);
  const create = view((v) => v.SchemaCreate);
  return {
    name,
    list,
    show: can.show ? show : undefined,
    edit: can.edit ? edit : undefined,
    create: can.create ? create : undefined,
    icon,
    recordRepresentation: schema['x-resource']?.recordRepresentation,
    ...extra,
  };
}
