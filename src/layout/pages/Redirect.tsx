/**
 * Two routing helpers of the product:
 * - `/redirect/<path>`: goes (replacing the entry) to `/<path>` with the same query, which remounts
 *   that page; the tab strip's "refresh" and the size switch use it.
 * - `/auth-redirect`: the landing page of a third-party sign-in popup: it hands the query to the
 *   window that opened it (local storage `x-admin-oauth-code`) and closes, or goes to the login page.
 */
import { useEffect } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { Box, CircularProgress, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';

/** `/redirect/*`. */
export function RedirectPage() {
  const params = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    navigate(`/${params['*'] ?? ''}${location.search}`, { replace: true });
  }, [params, location.search, navigate]);
  return null;
}

/** `/auth-redirect` (rendered without the layout). */
export function AuthRedirect() {
  const translate = useTranslate();
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const code = location.search.slice(1);
    localStorage.setItem('x-admin-oauth-code', code);
    if (window.opener) window.close();
    else navigate('/login', { replace: true });
  }, [location.search, navigate]);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, p: 6 }}>
      <CircularProgress size={24} />
      <Typography>{translate('shell.page.authRedirect')}</Typography>
    </Box>
  );
}
