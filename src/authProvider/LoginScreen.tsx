/**
 * The login screen's markup and behaviour, with Material UI only (no react-admin), so the console's first
 * load can show it before react-admin and the shell are loaded (src/main.tsx, `StandaloneLogin` below)
 * and react-admin can show the very same screen as its `loginPage` (src/authProvider/LoginPage.tsx).
 *
 * What it shows (react-admin's Login + LoginForm look): a card on the dark radial background with the lock
 * avatar, the translated title and subtitle, `username` and `password` inputs (both required: an empty
 * one reads `ra.validation.required`), the password's show/hide toggle, the sign-in button with a
 * spinner while the call runs, the failure's message (translated when it is a message key) and the
 * language switch (zh / en). The typed username survives a language switch (the form is not remounted).
 */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import {
  Avatar,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  FilledInput,
  FormControl,
  FormHelperText,
  IconButton,
  InputAdornment,
  InputLabel,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import LockOutlined from '@mui/icons-material/LockOutlined';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';

export type Translate = (key: string, options?: Record<string, unknown>) => string;

export interface LoginScreenProps {
  translate: Translate;
  locale: string;
  onLocaleChange: (locale: 'en' | 'zh') => void;
  /** Signs in; rejects with an Error whose message is a message key or text to show. */
  onSubmit: (credentials: { username: string; password: string }) => Promise<void>;
}

/** The message of a failed sign-in, translated when it is a key (react-admin LoginForm's rule). */
export function loginErrorText(error: unknown, translate: Translate): string {
  const message =
    typeof error === 'string' ? error : (error as { message?: string } | undefined)?.message || '';
  return message ? translate(message, { _: message }) : translate('ra.auth.sign_in_error');
}

/**
 * A required filled text input (react-admin's TextInput look), from the input parts rather than
 * TextField, which would bring the select, menu and popover code into the login page's chunk.
 */
function Field(props: {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  type?: string;
  autoComplete?: string;
  autoFocus?: boolean;
  endAdornment?: ReactNode;
}) {
  const id = useId();
  return (
    <FormControl variant="filled" fullWidth margin="dense" required error={!!props.error}>
      <InputLabel htmlFor={id}>{props.label}</InputLabel>
      <FilledInput
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        autoComplete={props.autoComplete}
        autoFocus={props.autoFocus}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        endAdornment={props.endAdornment}
        aria-describedby={`${id}-helper`}
      />
      <FormHelperText id={`${id}-helper`}>{props.error ?? ' '}</FormHelperText>
    </FormControl>
  );
}

/** The login page (see the module doc). */
export function LoginScreen({ translate, locale, onLocaleChange, onSubmit }: LoginScreenProps) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [touched, setTouched] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const required = translate('ra.validation.required');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!username.trim() || !password) return;
    setLoading(true);
    setError(null);
    try {
      await onSubmit({ username, password });
    } catch (err) {
      setError(loginErrorText(err, translate));
    } finally {
      setLoading(false);
    }
  };

  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: 'column',
        minHeight: '100vh',
        alignItems: 'center',
        justifyContent: 'flex-start',
        backgroundImage: 'radial-gradient(circle at 50% 14em, #313264 0%, #00023b 60%, #00023b 100%)',
      }}
      data-testid="login-page"
    >
      <Card sx={{ minWidth: 300, maxWidth: 'calc(100vw - 32px)', mt: '6em' }}>
        <Box sx={{ m: '1em', display: 'flex', justifyContent: 'center' }}>
          <Avatar sx={{ bgcolor: 'secondary.main' }}>
            <LockOutlined />
          </Avatar>
        </Box>
        <Stack alignItems="center" spacing={0.5} sx={{ px: 2 }}>
          <Typography variant="h6" component="h1">
            {translate('baas.auth.login_title')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {translate('baas.app.subtitle')}
          </Typography>
        </Stack>
        <form onSubmit={submit} noValidate>
          <CardContent sx={{ width: 300, maxWidth: '100%', boxSizing: 'border-box', mx: 'auto' }}>
            <Field
              autoFocus
              name="username"
              autoComplete="username"
              label={translate('ra.auth.username')}
              value={username}
              onChange={setUsername}
              error={touched && !username.trim() ? required : undefined}
            />
            <Field
              name="password"
              type={showPassword ? 'text' : 'password'}
              autoComplete="current-password"
              label={translate('ra.auth.password')}
              value={password}
              onChange={setPassword}
              error={touched && !password ? required : undefined}
              endAdornment={
                <InputAdornment position="end">
                  <IconButton
                    aria-label={translate(
                      showPassword ? 'ra.input.password.toggle_visible' : 'ra.input.password.toggle_hidden',
                    )}
                    onClick={() => setShowPassword((v) => !v)}
                    edge="end"
                    size="small"
                  >
                    {showPassword ? <VisibilityOff /> : <Visibility />}
                  </IconButton>
                </InputAdornment>
              }
            />
            {error && (
              <Typography role="alert" color="error" sx={{ mt: 1, fontSize: 14 }} data-testid="login-error">
                {error}
              </Typography>
            )}
            <Button
              variant="contained"
              type="submit"
              color="primary"
              disabled={loading}
              fullWidth
              sx={{ mt: 2 }}
            >
              {loading ? <CircularProgress size={19} thickness={3} /> : translate('ra.auth.sign_in')}
            </Button>
          </CardContent>
        </form>
        <Box sx={{ display: 'flex', justifyContent: 'center', pb: 2 }}>
          <ToggleButtonGroup
            size="small"
            exclusive
            value={locale}
            onChange={(_, v) => v && onLocaleChange(v)}
            aria-label="language"
          >
            <ToggleButton value="zh">{translate('baas.language.zh')}</ToggleButton>
            <ToggleButton value="en">{translate('baas.language.en')}</ToggleButton>
          </ToggleButtonGroup>
        </Box>
      </Card>
    </Box>
  );
}
