/**
 * Switch roles (admin only, `/permission/role`): asks the server for a fresh token scoped to one of
 * the account's own roles (`POST /dev-api/user/switchRole {role}` → `{token, roles}`; the old token
 * is revoked there), stores it in the `Admin-Token` cookie, reloads the user info and so regenerates
 * the routes and the menu. The product's original made a token from the role name plus a suffix; the
 * server never accepts such a guessable token.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Card, CardContent, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { schemaForResource } from '../../../kernel/dialect/schemaRegistry';
import { cookieTokenStore } from '../../authProvider';
import { httpClient } from '../../dataProvider/httpClient';
import { useShell } from '../ShellContext';

/** The roles the server knows: the accounts schema's `roles` enum. */
const KNOWN_ROLES = schemaForResource('accounts').properties.roles.items!.enum as string[];

/** The switch-roles page. */
export function SwitchRoles() {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const { info, reloadSession } = useShell();
  const roles = info?.roles ?? [];
  const own = info?.availableRoles ?? roles;
  const choices = own.includes('admin') ? [...new Set([...own, ...KNOWN_ROLES])] : own;
  const [role, setRole] = useState(roles[0] ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const { json } = await httpClient<{ token: string; roles: string[] }>('/dev-api/user/switchRole', {
        method: 'POST',
        body: JSON.stringify({ role }),
      });
      cookieTokenStore.set(json.data.token);
      reloadSession();
      notify('shell.switchRoles.success', { type: 'success', messageArgs: { role } });
      navigate('/dashboard');
    } catch (e) {
      setError((e as Error).message || translate('shell.session.hasError'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card elevation={0} data-testid="switch-roles">
      <CardContent>
        <Typography component="h1" variant="h6" sx={{ mb: 1 }}>
          {translate('shell.switchRoles.title')}
        </Typography>
        <Typography sx={{ mb: 1 }}>
          {translate('shell.switchRoles.current', { roles: roles.join(', ') })}
        </Typography>
        <Typography sx={{ color: '#606266', mb: 3, maxWidth: 640 }}>
          {translate('shell.switchRoles.explain')}
        </Typography>
        <Stack direction="row" spacing={2} alignItems="center">
          <TextField
            select
            label={translate('shell.switchRoles.choose')}
            value={role}
            onChange={(e) => setRole(e.target.value)}
            sx={{ minWidth: 200 }}
          >
            {choices.map((r) => (
              <MenuItem key={r} value={r}>
                {r}
              </MenuItem>
            ))}
          </TextField>
          <Button variant="contained" disabled={busy || !role} onClick={submit}>
            {translate('shell.switchRoles.switch')}
          </Button>
        </Stack>
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}
