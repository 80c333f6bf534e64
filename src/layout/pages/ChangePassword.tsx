/**
 * Set > Password (`/set/password`): the signed-in account changes its own password with
 * `POST /dev-api/user/password {oldPassword, newPassword}`. The current password is required; the server
 * ends the account's other sessions and keeps this one. The new password is typed twice; the rules
 * (8 to 256 characters) are the accounts schema's (schemas/account.schema.json `password`), and the
 * server's field errors are shown under the field they name.
 */
import { useState } from 'react';
import { Alert, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import { HttpError, useNotify, useTranslate } from 'react-admin';
import { schemaForResource } from '../../../kernel/dialect/schemaRegistry';
import { httpClient } from '../../dataProvider/httpClient';

const rule = schemaForResource('accounts').properties.password as { minLength: number; maxLength: number };

type Field = 'oldPassword' | 'newPassword' | 'confirm';

/** The change-password page. */
export function ChangePassword() {
  const translate = useTranslate();
  const notify = useNotify();
  const [values, setValues] = useState<Record<Field, string>>({
    oldPassword: '',
    newPassword: '',
    confirm: '',
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const check = (): Partial<Record<Field, string>> => {
    const e: Partial<Record<Field, string>> = {};
    if (!values.oldPassword) e.oldPassword = translate('ra.validation.required');
    if (values.newPassword.length < rule.minLength || values.newPassword.length > rule.maxLength)
      e.newPassword = translate('shell.password.length', { min: rule.minLength, max: rule.maxLength });
    if (values.confirm !== values.newPassword) e.confirm = translate('shell.password.mismatch');
    return e;
  };

  const submit = async (ev: React.FormEvent) => {
    ev.preventDefault();
    const e = check();
    setErrors(e);
    setError(null);
    if (Object.keys(e).length) return;
    setBusy(true);
    try {
      await httpClient('/dev-api/user/password', {
        method: 'POST',
        body: JSON.stringify({ oldPassword: values.oldPassword, newPassword: values.newPassword }),
      });
      notify('shell.password.changed', { type: 'success' });
      setValues({ oldPassword: '', newPassword: '', confirm: '' });
    } catch (err) {
      const body = (err as HttpError).body as { errors?: Record<string, string> } | undefined;
      const field = body?.errors && (Object.keys(body.errors)[0] as Field | undefined);
      if (field === 'oldPassword') setErrors({ oldPassword: translate('shell.password.wrongCurrent') });
      else if (field === 'newPassword')
        setErrors({
          newPassword: translate('shell.password.length', { min: rule.minLength, max: rule.maxLength }),
        });
      else setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const input = (name: Field, autoComplete: string) => (
    <TextField
      name={name}
      type="password"
      label={translate(`shell.password.${name}`)}
      autoComplete={autoComplete}
      value={values[name]}
      onChange={(e) => setValues({ ...values, [name]: e.target.value })}
      error={!!errors[name]}
      helperText={errors[name] ?? ' '}
      required
      fullWidth
      inputProps={{ 'data-testid': `password-${name}` }}
    />
  );

  return (
    <Card elevation={0} sx={{ maxWidth: 520 }} data-testid="change-password">
      <CardContent>
        <Typography component="h1" variant="h6" sx={{ mb: 1 }}>
          {translate('shell.password.title')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
          {translate('shell.password.explain')}
        </Typography>
        <form onSubmit={submit} noValidate>
          <Stack spacing={1}>
            {input('oldPassword', 'current-password')}
            {input('newPassword', 'new-password')}
            {input('confirm', 'new-password')}
            {error && <Alert severity="error">{error}</Alert>}
            <Button type="submit" variant="contained" disabled={busy} sx={{ alignSelf: 'flex-start' }}>
              {translate('shell.password.submit')}
            </Button>
          </Stack>
        </form>
      </CardContent>
    </Card>
  );
}
