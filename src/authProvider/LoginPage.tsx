/**
 * The console's login page: react-admin's Login card with a translated title, username/password
 * (react-admin's LoginForm → authProvider.login → `POST /dev-api/user/login`) and a language switch
 * (writes the `language` cookie).
 */
import { Box, Stack, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { Login, LoginForm, useLocaleState, useTranslate } from 'react-admin';
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
      {/* Both fields as wide as the card (react-admin's differ: the password's adornment widens it). */}
      <LoginForm sx={{ '& .MuiFormControl-root': { width: '100%' } }} />
      <Box sx={{ display: 'flex', justifyContent: 'center', pb: 2 }}>
        <LanguageSwitch />
      </Box>
    </Login>
  );
}
