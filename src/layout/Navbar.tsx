/**
 * The top bar (vue-element-admin `layout/components/Navbar`): hamburger, breadcrumbs, and on the
 * right the unread messages badge (role company), the error-log badge, full-screen toggle, size switch, language switch, the settings gear and the
 * avatar menu (profile, dashboard, log out). The breadcrumbs take the room left and end in an ellipsis;
 * on a phone only the last crumb shows. Logout clears the token and roles and goes to
 * `/login?redirect=<current page>`.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Avatar, Box, Divider, IconButton, ListItemText, Menu, MenuItem, Tooltip } from '@mui/material';
import MenuIcon from '@mui/icons-material/Menu';
import MenuOpenIcon from '@mui/icons-material/MenuOpen';
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import FullscreenExitIcon from '@mui/icons-material/FullscreenExit';
import FormatSizeIcon from '@mui/icons-material/FormatSize';
import TranslateIcon from '@mui/icons-material/Translate';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import screenfull from 'screenfull';
import { useI18nProvider, useLocaleState, useLogout, useNotify, useTranslate } from 'react-admin';
import { breadcrumbs } from '../shell/router';
import { routeTitle } from './routeTitle';
import { setLanguageCookie, setSidebarOpened, setSize, SIZES, type Size } from '../shell/preferences';
import { useShell } from './ShellContext';
import { ErrorLogButton } from './ErrorLog';
import { SettingsDrawer } from './SettingsDrawer';
import { SHELL } from './theme';
import { UnreadBadge } from '../resources/medicine/UnreadBadge';

/** The top bar. */
export function Navbar() {
  const { prefs, mobile, roles } = useShell();
  const translate = useTranslate();
  const opened = prefs.sidebarOpened;
  return (
    <Box
      className="navbar"
      component="header"
      sx={{
        height: SHELL.navbarHeight,
        overflow: 'hidden',
        position: 'relative',
        bgcolor: '#fff',
        boxShadow: '0 1px 4px rgba(0,21,41,.08)',
        display: 'flex',
        alignItems: 'center',
      }}
    >
      <IconButton
        aria-label={translate('shell.navbar.toggleSidebar')}
        data-testid="hamburger"
        onClick={() => setSidebarOpened(!opened, true)}
        sx={{ mx: 1, color: '#303133' }}
      >
        {opened ? <MenuOpenIcon /> : <MenuIcon />}
      </IconButton>
      <Breadcrumbs />
      <Box
        className="right-menu"
        sx={{ display: 'flex', alignItems: 'center', height: '100%', pr: 1, ml: 'auto', flexShrink: 0 }}
      >
        {roles?.includes('company') && <UnreadBadge />}
        {!mobile && <ErrorLogButton />}
        {!mobile && <ScreenfullButton />}
        {!mobile && <SizeSelect />}
        <LangSelect />
        <SettingsDrawer />
        <AvatarMenu />
      </Box>
    </Box>
  );
}

/** Breadcrumbs of the current route (vue-element-admin `components/Breadcrumb`). */
export function Breadcrumbs() {
  const { match, mobile } = useShell();
  const translate = useTranslate();
  if (!match) return null;
  const all = breadcrumbs(match);
  // A phone has room for the current page's crumb only.
  const crumbs = mobile ? all.slice(-1) : all;
  return (
    <Box
      component="nav"
      aria-label="breadcrumb"
      className="app-breadcrumb"
      sx={{
        fontSize: 14,
        lineHeight: `${SHELL.navbarHeight}px`,
        whiteSpace: 'nowrap',
        overflow: 'hidden',
        flex: '1 1 auto',
        minWidth: 0,
        mr: 1,
      }}
    >
      <Box component="ol" sx={{ display: 'flex', listStyle: 'none', m: 0, p: 0, minWidth: 0 }}>
        {crumbs.map((c, i) => (
          <Box
            component="li"
            key={`${c.path}-${i}`}
            sx={{ display: 'flex', minWidth: 0, flexShrink: i === crumbs.length - 1 ? 1 : 0 }}
          >
            {i > 0 && (
              <Box component="span" sx={{ mx: 1, color: '#c0c4cc', fontWeight: 700 }}>
                /
              </Box>
            )}
            {c.link ? (
              <Box
                component={Link}
                to={c.path}
                sx={{
                  color: '#303133',
                  fontWeight: 700,
                  textDecoration: 'none',
                  overflow: 'hidden',
                  textOverflow: 'ellipsis',
                  '&:hover': { color: 'primary.main' },
                }}
              >
                {routeTitle(translate, c.title)}
              </Box>
            ) : (
              <Box
                component="span"
                className="no-redirect"
                aria-current={i === crumbs.length - 1 ? 'page' : undefined}
                sx={{ color: '#97a8be', cursor: 'text', overflow: 'hidden', textOverflow: 'ellipsis' }}
              >
                {routeTitle(translate, c.title)}
              </Box>
            )}
          </Box>
        ))}
      </Box>
    </Box>
  );
}

function RightItem({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Tooltip title={title}>
      <Box component="span" sx={{ display: 'inline-flex', color: '#5a5e66' }}>
        {children}
      </Box>
    </Tooltip>
  );
}

/** Full-screen toggle (screenfull); warns when the browser has no full-screen support. */
function ScreenfullButton() {
  const translate = useTranslate();
  const notify = useNotify();
  const [full, setFull] = useState(false);
  useEffect(() => {
    if (!screenfull.isEnabled) return;
    const onChange = () => setFull(screenfull.isFullscreen);
    screenfull.on('change', onChange);
    return () => screenfull.off('change', onChange);
  }, []);
  return (
    <RightItem title={translate('shell.navbar.screenfull')}>
      <IconButton
        aria-label={translate('shell.navbar.screenfull')}
        data-testid="screenfull"
        onClick={() => {
          if (!screenfull.isEnabled) {
            notify('shell.screenfull.unsupported', { type: 'warning' });
            return;
          }
          void screenfull.toggle();
        }}
      >
        {full ? <FullscreenExitIcon /> : <FullscreenIcon />}
      </IconButton>
    </RightItem>
  );
}

/**
 * Size switch (cookie `size`): changes the whole UI's density, then refreshes the current view and
 * forgets cached views, as the product does.
 */
function SizeSelect() {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const location = useLocation();
  const { prefs, dispatchTags } = useShell();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const choose = (size: Size) => {
    setAnchor(null);
    setSize(size);
    dispatchTags({ type: 'uncacheAll' });
    navigate(`/redirect${location.pathname}${location.search}`, { replace: true });
    notify('shell.size.success', { type: 'success' });
  };
  return (
    <>
      <RightItem title={translate('shell.navbar.size')}>
        <IconButton
          aria-label={translate('shell.navbar.size')}
          data-testid="size-select"
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <FormatSizeIcon />
        </IconButton>
      </RightItem>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {SIZES.map((s) => (
          <MenuItem key={s} selected={prefs.size === s} disabled={prefs.size === s} onClick={() => choose(s)}>
            {translate(`shell.size.${s}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

const LANGUAGES = [
  { locale: 'zh', label: '中文' },
  { locale: 'en', label: 'English' },
];

/**
 * The locale the user just chose, until its success toast is shown. Module-level because react-admin
 * remounts the whole tree under its i18n context once the new catalogue is loaded.
 */
let pendingLanguageToast: string | null = null;

/** Language switch: react-admin's locale and the `language` cookie, then a translated toast. */
function LangSelect() {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale, setLocale] = useLocaleState();
  const i18nProvider = useI18nProvider();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  useEffect(() => {
    // Only once the catalogue has switched (react-admin then remounts the tree, which would drop a
    // toast raised earlier).
    if (pendingLanguageToast && pendingLanguageToast === locale && i18nProvider.getLocale() === locale) {
      pendingLanguageToast = null;
      notify('shell.language.success', { type: 'success' });
    }
  }, [locale, notify, i18nProvider]);
  const choose = (next: string) => {
    setAnchor(null);
    setLanguageCookie(next);
    pendingLanguageToast = next;
    setLocale(next);
  };
  return (
    <>
      <RightItem title={translate('shell.navbar.language')}>
        <IconButton
          aria-label={translate('shell.navbar.language')}
          data-testid="lang-select"
          aria-haspopup="menu"
          aria-controls="simple-menu"
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <TranslateIcon />
        </IconButton>
      </RightItem>
      {/* Same id as react-admin's own locale menu, so tools that know react-admin find it. */}
      <Menu id="simple-menu" anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {LANGUAGES.map((l) => (
          <MenuItem
            key={l.locale}
            data-locale={l.locale}
            selected={locale === l.locale}
            disabled={locale === l.locale}
            onClick={() => choose(l.locale)}
          >
            {l.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

/** Avatar with its menu: profile, dashboard, log out. */
function AvatarMenu() {
  const translate = useTranslate();
  const { info } = useShell();
  const logout = useLogout();
  const location = useLocation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const doLogout = () => {
    setAnchor(null);
    // No removal of the shell's queries here: that made the mounted layout fetch the user info again,
    // racing the logout (a "session expired" toast); react-admin's logout clears the cache after it navigates.
    void logout({}, `/login?redirect=${encodeURIComponent(location.pathname + location.search)}`, false);
  };
  return (
    <>
      <Box
        component="button"
        type="button"
        data-testid="avatar-menu"
        aria-haspopup="menu"
        onClick={(e) => setAnchor(e.currentTarget)}
        sx={{
          display: 'flex',
          alignItems: 'center',
          border: 0,
          background: 'none',
          cursor: 'pointer',
          ml: 1,
          p: 0,
        }}
      >
        <Avatar
          variant="rounded"
          src={info?.avatar || undefined}
          alt={info?.name}
          sx={{ width: 40, height: 40, borderRadius: '10px', bgcolor: 'primary.main', fontSize: 16 }}
        >
          {(info?.name || '?').slice(0, 1).toUpperCase()}
        </Avatar>
        <ArrowDropDownIcon sx={{ color: '#5a5e66' }} />
      </Box>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {info && (
          <ListItemText sx={{ px: 2, py: 0.5 }} primary={info.name} secondary={info.roles.join(', ')} />
        )}
        <MenuItem component={Link} to="/profile/index" onClick={() => setAnchor(null)}>
          {translate('shell.navbar.profile')}
        </MenuItem>
        <MenuItem component={Link} to="/" onClick={() => setAnchor(null)}>
          {translate('shell.navbar.dashboard')}
        </MenuItem>
        <Divider />
        <MenuItem data-testid="logout" onClick={doLogout}>
          {translate('shell.navbar.logOut')}
        </MenuItem>
      </Menu>
    </>
  );
}
