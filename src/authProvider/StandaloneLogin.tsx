/**
 * The login screen of the console's first load, shown by src/main.tsx before react-admin and the shell
 * are loaded (they are not needed to sign in): ./LoginScreen.tsx with the console's theme, the
 * i18nProvider (src/i18n) and the session-aware authProvider (src/shell/session.ts `withShellSession`),
 * the same objects react-admin uses once loaded. On success it calls `onSignedIn(path)` with the
 * in-app path to open (the login page's `?redirect=`, else `/`).
 */
import { useState } from 'react';
import { CssBaseline } from '@mui/material';
import { ThemeProvider } from '@mui/material/styles';
import { localStorageStore } from 'ra-core';
import { i18nProvider, type Locale } from '../i18n';
import { createShellTheme } from '../layout/theme';
import { getPreferences } from '../shell/preferences';
import { withShellSession } from '../shell/session';
import authProvider from './index';
import { LoginScreen } from './LoginScreen';

const shellAuthProvider = withShellSession(authProvider);

export function StandaloneLogin({ onSignedIn }: { onSignedIn: (path: string) => void }) {
  const [locale, setLocale] = useState(i18nProvider.getLocale());
  const [theme] = useState(() => {
    const p = getPreferences();
    return createShellTheme({ color: p.settings.theme, size: p.size });
  });
  const changeLocale = async (next: Locale) => {
    await i18nProvider.changeLocale(next);
    // react-admin's store keeps the locale too (useLocaleState); keep it in step for when it loads.
    localStorageStore().setItem('locale', next);
    setLocale(next);
  };
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <LoginScreen
        translate={i18nProvider.translate}
        locale={locale}
        onLocaleChange={(l) => void changeLocale(l)}
        onSubmit={async (credentials) => {
          const result = (await shellAuthProvider.login(credentials)) as { redirectTo?: string } | void;
          onSignedIn(result?.redirectTo ?? '/');
        }}
      />
    </ThemeProvider>
  );
}
