/**
 * The shell's plain pages: 401 (no permission), 404 (not found) and "not available yet" for sections
 * of the product whose screens do not exist in this version. Each shows its translated title; the
 * breadcrumbs above come from the route tree.
 */
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import ConstructionIcon from '@mui/icons-material/Construction';
import { useTranslate } from 'react-admin';
import { useShell } from '../ShellContext';
import { routeTitle } from '../routeTitle';

/** A page card with a big code or icon, a title, a text and the two ways out. */
export function MessagePage({
  code,
  title,
  body,
  testId,
}: {
  code: ReactNode;
  title: string;
  body: string;
  testId: string;
}) {
  const translate = useTranslate();
  const navigate = useNavigate();
  return (
    <Paper data-testid={testId} sx={{ p: { xs: 3, md: 6 }, mt: 1 }} elevation={0}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={{ xs: 2, md: 6 }} alignItems="center">
        <Box
          sx={{
            fontSize: 96,
            fontWeight: 700,
            color: 'primary.main',
            lineHeight: 1,
            minWidth: 180,
            textAlign: 'center',
          }}
        >
          {code}
        </Box>
        <Box>
          <Typography component="h1" variant="h5" sx={{ fontWeight: 700, mb: 1, color: '#222' }}>
            {title}
          </Typography>
          <Typography sx={{ color: '#606266', mb: 3, maxWidth: 560 }}>{body}</Typography>
          <Stack direction="row" spacing={1}>
            <Button variant="outlined" onClick={() => navigate(-1)}>
              {translate('shell.page.goBack')}
            </Button>
            <Button variant="contained" component={Link} to="/dashboard">
              {translate('shell.page.backHome')}
            </Button>
          </Stack>
        </Box>
      </Stack>
    </Paper>
  );
}

/** An error page for an HTTP-like `code`: test id `page-<code>`, title and body from translation keys. */
function CodePage({ code, titleKey, bodyKey }: { code: string; titleKey: string; bodyKey: string }) {
  const translate = useTranslate();
  return (
    <MessagePage testId={`page-${code}`} code={code} title={translate(titleKey)} body={translate(bodyKey)} />
  );
}

/** 401: the route exists but not for the account's roles. */
export function Page401() {
  return (
    <CodePage code="401" titleKey="shell.page.unauthorizedTitle" bodyKey="shell.page.unauthorizedBody" />
  );
}

/** 404: no such page. */
export function Page404() {
  return <CodePage code="404" titleKey="shell.page.notFoundTitle" bodyKey="shell.page.notFoundBody" />;
}

/** A section of the product whose screens are not in this version: its title and a clear notice. */
export function NotAvailable() {
  const translate = useTranslate();
  const { match } = useShell();
  const key = match?.route.meta?.title;
  const title = key ? routeTitle(translate, key) : '';
  return (
    <MessagePage
      testId="not-available"
      code={<ConstructionIcon sx={{ fontSize: 96 }} />}
      title={`${title} · ${translate('shell.page.notAvailableTitle')}`}
      body={translate('shell.page.notAvailableBody', { title })}
    />
  );
}
