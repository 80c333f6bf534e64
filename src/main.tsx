/**
 * Browser entry. Once the starting locale's messages are loaded (the zh catalogue is a chunk of its own):
 * - while the hash is a public page (`#/verify/:kind/:id`, `#/certificate/:id`; src/public/PublicApp.tsx,
 *   its own chunk), that page: it is rendered instead of `<Admin>`, so it needs no login and never
 *   triggers the login redirect;
 * - on the login page (`#/login`, or the bare `/`) without a session token, the standalone login screen
 *   (src/authProvider/StandaloneLogin.tsx): react-admin, the shell and every section load only after
 *   signing in, then the console opens at the login's redirect target;
 * - anywhere else, or with a token, the console (App.tsx, its own chunk) at once.
 * Deep links without a session go straight to the console, whose router decides.
 */
import { lazy, StrictMode, Suspense, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { i18nProvider } from './i18n';
import { TOKEN_COOKIE } from './dataProvider/httpClient';
import { StandaloneLogin } from './authProvider/StandaloneLogin';
import { publicRoute } from './public/route';
import Cookies from 'js-cookie';

const App = lazy(() => import('./App'));
const PublicApp = lazy(() => import('./public/PublicApp'));

/** The console or a public page, following the hash (a console link may open a public page). */
function Root() {
  const [hash, setHash] = useState(window.location.hash);
  useEffect(() => {
    const on = () => setHash(window.location.hash);
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  const route = publicRoute(hash);
  return <Suspense fallback={null}>{route ? <PublicApp route={route} /> : <App />}</Suspense>;
}

const root = createRoot(document.getElementById('root')!);

function renderConsole() {
  root.render(
    <StrictMode>
      <Root />
    </StrictMode>,
  );
}

const onLoginPage = /^(#\/?)?$|^#\/login(?:[?/]|$)/.test(window.location.hash);

void i18nProvider.ready.finally(() => {
  if (onLoginPage && !Cookies.get(TOKEN_COOKIE)) {
    if (!window.location.hash.startsWith('#/login')) window.history.replaceState(null, '', '#/login');
    root.render(
      <StrictMode>
        <StandaloneLogin
          onSignedIn={(path) => {
            window.history.replaceState(null, '', `#${path}`);
            renderConsole();
          }}
        />
      </StrictMode>,
    );
  } else renderConsole();
});
