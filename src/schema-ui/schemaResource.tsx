/**
 * `schemaResource(name, overrides)`: the react-admin resource config object (`{ list, show, edit,
 * create, icon, recordRepresentation }`, spread into `<Resource>`) built from the generic schema views.
 * Only the views the schema's `x-endpoints` support are present; the icon comes from `x-resource.icon`.
 */
import type { ComponentType, ReactNode } from 'react';
import ListAlt from '@mui/icons-material/ListAlt';
import { schemaForResource } from '../../common/schemaRegistry';
import { ICONS } from '../layout/icons';
import {
  capabilities,
  SchemaCreate,
  SchemaEdit,
  SchemaList,
  SchemaShow,
  type SchemaOverrides,
} from './views';

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
  const icon = iconName ? ICONS[iconName] : ListAlt;
  if (!icon)
    throw new Error(
      `schemas/${schema.$id}.schema.json: x-resource.icon "${iconName}" is not in src/layout/icons.tsx ICONS`,
    );
  const list = () => <SchemaList resource={name} overrides={overrides} />;
  const show = () => <SchemaShow resource={name} overrides={overrides} />;
  const edit = () => <SchemaEdit resource={name} overrides={overrides} />;
  const create = () => <SchemaCreate resource={name} overrides={overrides} />;
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
