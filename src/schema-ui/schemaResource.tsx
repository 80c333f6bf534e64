/**
 * `schemaResource(name, overrides)`: the react-admin resource config object (`{ list, show, edit,
 * create, icon, recordRepresentation }`, spread into `<Resource>`) built from the generic schema views.
 * Only the views the schema's `x-endpoints` support are present; the icon comes from `x-resource.icon`.
 */
import type { ComponentType, ReactNode } from 'react';
import Business from '@mui/icons-material/Business';
import Category from '@mui/icons-material/Category';
import Gavel from '@mui/icons-material/Gavel';
import Image from '@mui/icons-material/Image';
import ListAlt from '@mui/icons-material/ListAlt';
import Palette from '@mui/icons-material/Palette';
import People from '@mui/icons-material/People';
import Person from '@mui/icons-material/Person';
import { schemaForResource } from '../../common/schemaRegistry';
import {
  capabilities,
  SchemaCreate,
  SchemaEdit,
  SchemaList,
  SchemaShow,
  type SchemaOverrides,
} from './views';

/** Icons the schemas may name in `x-resource.icon` (@mui/icons-material names). */
export const ICONS: Record<string, ComponentType> = {
  Business,
  Category,
  Gavel,
  Image,
  Palette,
  People,
  Person,
};

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
      `schemas/${schema.$id}.schema.json: x-resource.icon "${iconName}" is not in src/schema-ui/schemaResource.tsx ICONS`,
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
