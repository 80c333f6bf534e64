/**
 * react-admin's error and access-denied pages, re-exported from a module of the console's own so that
 * src/shell/ConsoleAdmin.tsx can load them with a dynamic import of this module (a dynamic import of
 * `ra-ui-materialui` itself is ineffective: the package is imported statically elsewhere).
 */
export { AccessDenied, Error } from 'ra-ui-materialui';
