/**
 * The profile page (`/profile/index`): the signed-in account from `GET /dev-api/user/info` — avatar,
 * name, account, roles, introduction — and the last visited page of this browser session.
 */
import { Link } from 'react-router';
import { Avatar, Box, Card, CardContent, Chip, Divider, Grid, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { LAST_ROUTE_KEY } from '../../shell/session';
import { useShell } from '../ShellContext';

/** The profile page. */
export function Profile() {
  const translate = useTranslate();
  const { info } = useShell();
  if (!info) return null;
  const last = sessionStorage.getItem(LAST_ROUTE_KEY);
  const row = (label: string, value: React.ReactNode) => (
    <Stack direction="row" spacing={2} sx={{ py: 1 }}>
      <Typography sx={{ width: 140, color: '#909399', flexShrink: 0 }}>{label}</Typography>
      <Box sx={{ minWidth: 0, wordBreak: 'break-word' }}>{value}</Box>
    </Stack>
  );
  return (
    <Grid container spacing={2} data-testid="profile">
      <Grid size={{ xs: 12, md: 4 }}>
        <Card elevation={0}>
          <CardContent>
            <Typography sx={{ fontWeight: 700, mb: 2 }}>{translate('shell.profile.aboutMe')}</Typography>
            <Stack alignItems="center" spacing={1}>
              <Avatar
                src={info.avatar || undefined}
                sx={{ width: 96, height: 96, bgcolor: 'primary.main', fontSize: 40 }}
              >
                {info.name.slice(0, 1).toUpperCase()}
              </Avatar>
              <Typography component="h1" variant="h6">
                {info.name}
              </Typography>
              <Stack direction="row" spacing={1}>
                {info.roles.map((r) => (
                  <Chip key={r} label={r} color="primary" variant="outlined" />
                ))}
              </Stack>
            </Stack>
            <Divider sx={{ my: 2 }} />
            <Typography sx={{ color: '#606266' }}>
              {info.introduction || translate('shell.profile.noIntroduction')}
            </Typography>
          </CardContent>
        </Card>
      </Grid>
      <Grid size={{ xs: 12, md: 8 }}>
        <Card elevation={0}>
          <CardContent>
            {row(translate('shell.profile.account'), info.account)}
            {row(translate('shell.profile.name'), info.name)}
            {row(translate('shell.profile.roles'), info.roles.join(', '))}
            {row(translate('shell.profile.introduction'), info.introduction || '—')}
            {row(translate('shell.profile.lastRoute'), last ? <Link to={last}>{last}</Link> : '—')}
          </CardContent>
        </Card>
      </Grid>
    </Grid>
  );
}
