/**
 * Browser entry. Once the starting locale's messages are loaded (the zh catalogue is a chunk of its own):
 * - on the login page (`#/login`, or the bare `/`) without a session token, the standalone login screen
 *   (src/authProvider/StandaloneLogin.tsx): react-admin, the shell and every section load only after
 *   signing in, then the console opens at the login's redirect target;
 * - anywhere else, or with a token, the console (App.tsx, its own chunk) at once.
 * Deep links without a session (and public pages) go straight to the console, whose router decides.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { i18nProvider } from './i18n';
import { TOKEN_COOKIE } from './dataProvider/httpClient';
import { StandaloneLogin } from './authProvider/StandaloneLogin';
import Cookies from 'js-cookie';

const root = createRoot(document.getElementById('root')!);

async function renderConsole() {
  const { default: App } = await import('./App');
  root.render(
    <StrictMode>
      <App />
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
            void renderConsole();
          }}
        />
      </StrictMode>,
    );
  } else void renderConsole();
});
