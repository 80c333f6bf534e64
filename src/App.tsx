/**
 * The console: react-admin `<Admin>` with the schema-derived dataProvider, the token authProvider, the
 * en/zh i18nProvider and the login page. Resources come from the schemas (src/generated/resources.ts);
 * a folder `src/resources/<name>/index.ts(x)` (or `src/resources/blockchain/<name>/`) default-exporting a
 * ResourceConfig overrides the generic one. Only the resources the user's roles allow (`x-roles`) are
 * registered.
 */
import Cookies from 'js-cookie';
import { CustomRoutes, Resource } from 'react-admin';
import { ConsoleAdmin } from './shell/ConsoleAdmin';
import authProvider from './authProvider';
import LoginPage from './authProvider/LoginPage';
import AuthenticationErrorPage from './authProvider/AuthenticationErrorPage';
import dataProvider from './dataProvider';
import { TOKEN_COOKIE } from './dataProvider/httpClient';
import { createQueryClient } from './dataProvider/queryClient';
import { generatedResources } from './generated/resources';
import { i18nProvider } from './i18n';
import { rolesAllow } from './authProvider/roles';
import { schemaResource, type ResourceConfig } from './schema-ui/schemaResource';
import {
  initialShellTheme,
  Page404,
  ShellLayout,
  preloadScreen,
  ShellNotification,
  shellNoLayoutRoutes,
  shellRoutes,
  withShellSession,
} from './layout';

const folders = import.meta.glob<{ default: ResourceConfig }>(
  [
    './resources/*/index.ts',
    './resources/*/index.tsx',
    './resources/blockchain/*/index.ts',
    './resources/blockchain/*/index.tsx',
  ],
  { eager: true },
);

/** Folder overrides by resource name (the folder's name). */
const overrides: Record<string, ResourceConfig> = Object.fromEntries(
  Object.entries(folders)
    .map(([path, mod]) => [path.split('/').slice(-2)[0], mod.default] as const)
    .filter(([, config]) => config && typeof config === 'object'),
);

/** Every resource config, in `x-resource.order` (then schema order). */
export const resources: ResourceConfig[] = [...generatedResources]
  .sort((a, b) => a.order - b.order)
  .map((r) => overrides[r.name] ?? schemaResource(r.name));

/** The element-admin shell: its session rules around the authProvider, its routes (src/layout). */
const shellAuthProvider = withShellSession(authProvider);
const shellScreens = { resources: Object.fromEntries(resources.map((r) => [r.name, r])) };
const shellCustomRoutes = shellRoutes(shellScreens);

// With a session, the layout and the screen at the address start loading with this chunk, beside the
// session check, instead of each after the one above it has rendered (App → layout → screen → its data).
// Without one the console goes to the login page, which needs neither.
if (typeof window !== 'undefined' && Cookies.get(TOKEN_COOKIE)) {
  void ShellLayout.preload();
  preloadScreen(window.location.hash.replace(/^#/, '').split('?')[0] || '/', shellScreens);
}

/** One react-query client for the console's life (4xx answers are not retried: dataProvider/queryClient.ts). */
const queryClient = createQueryClient();

export default function App() {
  return (
    <ConsoleAdmin
      disableTelemetry
      requireAuth
      title="baas.app.title"
      dataProvider={dataProvider}
      queryClient={queryClient}
      authProvider={shellAuthProvider}
      i18nProvider={i18nProvider}
      loginPage={LoginPage}
      layout={ShellLayout}
      theme={initialShellTheme()}
      notification={ShellNotification}
      catchAll={Page404}
      authenticationError={AuthenticationErrorPage}
    >
      <CustomRoutes>{shellCustomRoutes}</CustomRoutes>
      <CustomRoutes noLayout>{shellNoLayoutRoutes()}</CustomRoutes>
      {(permissions: string[] | undefined) =>
        resources
          .filter((r) => rolesAllow(permissions ?? [], r.name))
          .map(({ name, ...config }) => <Resource key={name} name={name} {...config} />)
      }
    </ConsoleAdmin>
  );
}
