/**
 * The console's login page: react-admin's Login card with a translated title, username/password
 * (react-admin's LoginForm → authProvider.login → `POST /dev-api/user/login`) and a language switch
 * (writes the `language` cookie). The username typed survives a language switch (react-admin remounts
 * the whole tree when the locale changes, which would clear the form): it is kept in memory, never the
 * password.
 */
import { Box, Stack, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import {
  Login,
  LoginForm,
  PasswordInput,
  required,
  TextInput,
  useLocaleState,
  useTranslate,
} from 'react-admin';
import LockOutlined from '@mui/icons-material/LockOutlined';

function LanguageSwitch() {
  const [locale, setLocale] = useLocaleState();
  const translate = useTranslate();
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={locale}
      onChange={(_, v) => v && setLocale(v)}
      aria-label="language"
    >
      <ToggleButton value="zh">{translate('baas.language.zh')}</ToggleButton>
      <ToggleButton value="en">{translate('baas.language.en')}</ToggleButton>
    </ToggleButtonGroup>
  );
}

/** The username typed on the login page, for the remount a language switch causes (this page load only). */
let typedUsername = '';

/** The login form's inputs: react-admin's two, the username kept across a language switch. */
function LoginInputs() {
  const translate = useTranslate();
  return (
    <>
      <TextInput
        autoFocus
        source="username"
        label={translate('ra.auth.username')}
        autoComplete="username"
        validate={required()}
        defaultValue={typedUsername}
        onChange={(e: { target: { value: string } }) => {
          typedUsername = e.target.value;
        }}
        fullWidth
      />
      <PasswordInput
        source="password"
        label={translate('ra.auth.password')}
        autoComplete="current-password"
        validate={required()}
        fullWidth
      />
    </>
  );
}

export default function LoginPage() {
  const translate = useTranslate();
  return (
    <Login avatarIcon={<LockOutlined />}>
      <Stack alignItems="center" spacing={0.5} sx={{ px: 2 }}>
        <Typography variant="h6" component="h1">
          {translate('baas.auth.login_title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('baas.app.subtitle')}
        </Typography>
      </Stack>
      <LoginForm>
        <LoginInputs />
      </LoginForm>
      <Box sx={{ display: 'flex', justifyContent: 'center', pb: 2 }}>
        <LanguageSwitch />
      </Box>
    </Login>
  );
}
