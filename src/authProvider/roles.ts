/**
 * Which resources a set of roles may use, from the schemas' `x-roles` (src/generated/resources.ts): the
 * console registers only the allowed resources (App.tsx) and the authProvider's `canAccess` answers
 * from the same rule. Resources no schema declares (dashboard, shell pages) are open to every role.
 */
import { generatedResources } from '../generated/resources';

/** Roles a resource requires (`x-roles`), or undefined when no schema declares the resource. */
export function rolesForResource(resource: string): string[] | undefined {
  return generatedResources.find((r) => r.name === resource)?.roles;
}

/** True when `roles` may use `resource`: it declares no roles, or one of its roles is held. */
export function rolesAllow(roles: string[], resource: string): boolean {
  const required = rolesForResource(resource);
  return !required || required.some((r) => roles.includes(r));
}
