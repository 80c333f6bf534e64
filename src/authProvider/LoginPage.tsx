/**
 * react-admin's `loginPage`: the console's login screen (./LoginScreen.tsx, the same one the first load
 * shows before react-admin is loaded, see src/main.tsx) over react-admin's hooks: `useLogin` (authProvider
 * login → `POST /dev-api/user/login`, then the `?redirect=` target), `useLocaleState` for the language
 * switch (writes the `language` cookie through the i18nProvider). Already signed in, it goes to `/`
 * (react-admin Login's rule).
 */
import { useEffect } from 'react';
import { useCheckAuth, useLocaleState, useLogin, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router';
import { LoginScreen } from './LoginScreen';

export default function LoginPage() {
  const translate = useTranslate();
  const [locale, setLocale] = useLocaleState();
  const login = useLogin();
  const checkAuth = useCheckAuth();
  const navigate = useNavigate();
  useEffect(() => {
    checkAuth({}, false)
      .then(() => navigate('/'))
      .catch(() => {
        // not signed in: stay on the login page
      });
  }, [checkAuth, navigate]);
  return (
    <LoginScreen
      translate={translate}
      locale={locale}
      onLocaleChange={setLocale}
      onSubmit={(credentials) => login(credentials)}
    />
  );
}
