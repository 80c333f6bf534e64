/**
 * Permission > Role (`/permission/role`): what each role opens, from the same rules the server and the
 * sidebar enforce:
 * - sections: the route tree (src/shell/routes.ts, with every schema resource's routes from its
 *   `x-resource` and `x-roles`) filtered for the role by `routesForRoles` (src/shell/permission.ts), the
 *   filter the sidebar itself uses;
 * - calls: `GET /dev-api/user/roles`, read by the server from its routes' role gates (the schemas'
 *   `x-roles` and the hand-written routes' `requireRoles`; server/routes/dev-api/user/index.ts).
 * Below them, the switch-roles form (a token scoped to one of the account's roles).
 */
import { useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Card,
  CardContent,
  Chip,
  Grid,
  Stack,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import { httpClient } from '../../dataProvider/httpClient';
import { routesForRoles } from '../../shell/permission';
import { buildMenu, type MenuNode } from '../../shell/router';
import { routeTitle } from '../routeTitle';
import { SwitchRoles } from './SwitchRoles';
import { TranslatedTable } from '../TranslatedTableHead';

interface RoleCalls {
  role: string;
  calls: { method: string; path: string; summary: string }[];
}

/** The menu sections a role sees: top-level entries with their entries (dashboard and profile left out). */
export function sectionsFor(role: string): MenuNode[] {
  return buildMenu(routesForRoles([role])).filter((n) => n.children?.length);
}

function RoleCard({ role, calls }: RoleCalls) {
  const translate = useTranslate();
  const sections = sectionsFor(role);
  return (
    <Card elevation={0} data-testid={`role-${role}`} sx={{ height: '100%' }}>
      <CardContent>
        <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
          {translate(`resources.accounts.enums.roles.${role}`, { _: role })}{' '}
          <Typography component="span" sx={{ color: 'text.secondary', fontFamily: 'monospace' }}>
            ({role})
          </Typography>
        </Typography>
        <Typography sx={{ fontWeight: 600, mt: 1 }}>{translate('shell.roleMatrix.sections')}</Typography>
        <Stack spacing={1} sx={{ my: 1 }}>
          {sections.map((s) => (
            <Box key={s.key} data-testid="role-section">
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {routeTitle(translate, s.title)}
              </Typography>
              <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap" sx={{ mt: 0.5 }}>
                {(s.children ?? []).map((c) => (
                  <Chip key={c.key} size="small" variant="outlined" label={routeTitle(translate, c.title)} />
                ))}
              </Stack>
            </Box>
          ))}
        </Stack>
        <Typography sx={{ fontWeight: 600, mt: 2 }}>
          {translate('shell.roleMatrix.calls', { count: calls.length })}
        </Typography>
        <TranslatedTable
          testId="role-calls"
          boxSx={{ maxHeight: 360, overflowY: 'auto' }}
          columns={['shell.roleMatrix.method', 'shell.roleMatrix.path', 'shell.roleMatrix.summary']}
        >
          {calls.map((c) => (
            <TableRow key={`${c.method} ${c.path}`}>
              <TableCell sx={{ fontFamily: 'monospace' }}>{c.method}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{c.path}</TableCell>
              <TableCell>{c.summary}</TableCell>
            </TableRow>
          ))}
        </TranslatedTable>
      </CardContent>
    </Card>
  );
}

/** The role page. */
export function RoleMatrix() {
  const translate = useTranslate();
  const [roles, setRoles] = useState<RoleCalls[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    httpClient<{ roles: RoleCalls[] }>('/dev-api/user/roles')
      .then(({ json }) => setRoles(json.data.roles))
      .catch((e: Error) => setError(e.message));
  }, []);
  return (
    <Stack spacing={2} data-testid="role-matrix">
      <Typography component="h1" variant="h5">
        {translate('shell.roleMatrix.title')}
      </Typography>
      <Typography sx={{ color: 'text.secondary' }}>{translate('shell.roleMatrix.explain')}</Typography>
      {error && <Alert severity="error">{error}</Alert>}
      <Grid container spacing={2}>
        {roles?.map((r) => (
          <Grid key={r.role} size={{ xs: 12, lg: 6 }}>
            <RoleCard {...r} />
          </Grid>
        ))}
      </Grid>
      <SwitchRoles />
    </Stack>
  );
}
