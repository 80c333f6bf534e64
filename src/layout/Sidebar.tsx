/**
 * The sidebar (vue-element-admin `layout/components/Sidebar`): logo and "<product> Admin" title
 * (setting `sidebarLogo`), then the menu built from the routes the roles may see. 210 px open, 54 px
 * collapsed (icons only, groups open as a flyout on hover); on mobile it slides over the page.
 */
import { useEffect, useState, type MouseEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { Box, Collapse, Paper, Popper, Tooltip, Typography } from '@mui/material';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { useTranslate } from 'react-admin';
import { activeMenuPath, openGroupsFor, type MenuNode } from '../shell/router';
import { useShell } from './ShellContext';
import { routeIcon } from './icons';
import { routeTitle } from './routeTitle';
import { SHELL } from './theme';

/** The sidebar; `withoutAnimation` disables its slide/width transition (mobile resize). */
export function Sidebar({ withoutAnimation }: { withoutAnimation: boolean }) {
  const { menu, match, mobile, prefs } = useShell();
  const translate = useTranslate();
  const location = useLocation();
  const opened = prefs.sidebarOpened;
  const collapsed = !opened && !mobile;
  const active = match ? activeMenuPath(match) : location.pathname;
  const [openKeys, setOpenKeys] = useState<string[]>(() => openGroupsFor(menu, active));
  useEffect(() => {
    const needed = openGroupsFor(menu, active);
    setOpenKeys((keys) =>
      needed.every((k) => keys.includes(k)) ? keys : [...new Set([...keys, ...needed])],
    );
  }, [active, menu]);
  const toggle = (key: string) =>
    setOpenKeys((keys) => (keys.includes(key) ? keys.filter((k) => k !== key) : [...keys, key]));
  const width = collapsed ? SHELL.sidebarCollapsedWidth : SHELL.sidebarWidth;
  const hiddenOnMobile = mobile && !opened;
  const color = prefs.settings.theme;

  return (
    <Box
      component="nav"
      className="sidebar-container"
      data-testid="sidebar"
      aria-label="sidebar"
      aria-hidden={hiddenOnMobile}
      sx={{
        width,
        position: 'fixed',
        top: 0,
        bottom: 0,
        left: 0,
        zIndex: 1300,
        overflowX: 'hidden',
        overflowY: 'auto',
        bgcolor: SHELL.sidebarBg,
        transform: hiddenOnMobile ? `translate3d(-${SHELL.sidebarWidth}px, 0, 0)` : 'none',
        transition: withoutAnimation ? 'none' : 'width .28s, transform .28s',
        '&::-webkit-scrollbar': { width: 0 },
      }}
    >
      {prefs.settings.sidebarLogo && (
        <Link to="/" style={{ textDecoration: 'none' }} data-testid="sidebar-logo">
          <Box
            sx={{
              height: SHELL.navbarHeight,
              lineHeight: `${SHELL.navbarHeight}px`,
              bgcolor: '#2b2f3a',
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              gap: 1.5,
              overflow: 'hidden',
            }}
          >
            <Logo />
            {!collapsed && (
              <Typography
                component="h1"
                sx={{ color: '#fff', fontWeight: 600, fontSize: 14, whiteSpace: 'nowrap', m: 0 }}
              >
                {translate('shell.adminTitle')}
              </Typography>
            )}
          </Box>
        </Link>
      )}
      <MenuList
        role="menu"
        nodes={menu}
        depth={0}
        active={active}
        openKeys={openKeys}
        toggle={toggle}
        collapsed={collapsed}
        color={color}
      />
    </Box>
  );
}

/** The product logo: a chain link in a rounded square, drawn inline (no external asset). */
function Logo() {
  return (
    <svg width="32" height="32" viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="7" fill="#409EFF" />
      <path
        d="M13.5 18.5l5-5M12 15l-2.2 2.2a3.5 3.5 0 005 5L17 20M20 17l2.2-2.2a3.5 3.5 0 00-5-5L15 12"
        stroke="#fff"
        strokeWidth="2.2"
        fill="none"
        strokeLinecap="round"
      />
    </svg>
  );
}

interface EntryProps {
  node: MenuNode;
  depth: number;
  active: string;
  openKeys: string[];
  toggle: (key: string) => void;
  collapsed: boolean;
  color: string;
}

/**
 * A menu entry's text: one line that ends in an ellipsis when it does not fit the sidebar, with the
 * whole title as its tooltip (`title`), so long labels (e.g. in English) stay readable.
 */
function MenuLabel({ title }: { title: string }) {
  return (
    <Box
      component="span"
      className="menu-label"
      title={title}
      sx={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis' }}
    >
      {title}
    </Box>
  );
}

/** A `<ul>` of menu entries at `depth` (`role="menu"` except the collapsed sidebar's pop-up list). */
function MenuList({
  nodes,
  role,
  ...entry
}: Omit<EntryProps, 'node'> & { nodes: MenuNode[]; role?: 'menu' }) {
  return (
    <Box component="ul" role={role} sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {nodes.map((n) => (
        <MenuEntry key={n.key} node={n} {...entry} />
      ))}
    </Box>
  );
}

function containsActive(node: MenuNode, active: string): boolean {
  return node.path === active || (node.children ?? []).some((c) => containsActive(c, active));
}

function MenuEntry({ node, depth, active, openKeys, toggle, collapsed, color }: EntryProps) {
  const translate = useTranslate();
  const state = { active, openKeys, toggle, color };
  const Icon = routeIcon(node.icon);
  const title = routeTitle(translate, node.title);
  const isActive = node.path === active;
  const inside = containsActive(node, active);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const rowSx = {
    display: 'flex',
    alignItems: 'center',
    height: 56,
    lineHeight: '56px',
    pl: collapsed && depth === 0 ? '20px' : `${20 + depth * 20}px`,
    pr: '20px',
    fontSize: 14,
    whiteSpace: 'nowrap',
    cursor: 'pointer',
    color: isActive ? color : inside && node.children ? '#f4f4f5' : SHELL.sidebarText,
    bgcolor: depth > 0 ? SHELL.sidebarSubBg : 'transparent',
    textDecoration: 'none',
    '&:hover': { bgcolor: SHELL.sidebarHover },
    '& svg.menu-icon': { fontSize: 18, mr: collapsed && depth === 0 ? 0 : '16px', flexShrink: 0 },
  } as const;

  if (!node.children) {
    const link = (
      <Box
        component={Link}
        to={node.path}
        role="menuitem"
        data-menu-path={node.path}
        aria-current={isActive ? 'page' : undefined}
        className={isActive ? 'is-active' : undefined}
        sx={rowSx}
      >
        <Icon className="menu-icon" />
        {!(collapsed && depth === 0) && <MenuLabel title={title} />}
      </Box>
    );
    return (
      <li>
        {collapsed && depth === 0 ? (
          <Tooltip title={title} placement="right">
            {link}
          </Tooltip>
        ) : (
          link
        )}
      </li>
    );
  }

  if (collapsed && depth === 0) {
    return (
      <li
        onMouseEnter={(e: MouseEvent<HTMLLIElement>) => setAnchor(e.currentTarget)}
        onMouseLeave={() => setAnchor(null)}
      >
        <Box sx={rowSx} role="menuitem" aria-haspopup="true" data-menu-group={node.path} title={title}>
          <Icon className="menu-icon" />
        </Box>
        <Popper open={!!anchor} anchorEl={anchor} placement="right-start" sx={{ zIndex: 1400 }}>
          <Paper sx={{ bgcolor: SHELL.sidebarBg, minWidth: 180, borderRadius: 1, overflow: 'hidden' }}>
            <MenuList nodes={node.children} depth={0} {...state} collapsed={false} />
          </Paper>
        </Popper>
      </li>
    );
  }

  const open = openKeys.includes(node.key);
  return (
    <li>
      <Box
        sx={rowSx}
        role="menuitem"
        aria-expanded={open}
        data-menu-group={node.path}
        onClick={() => toggle(node.key)}
      >
        <Icon className="menu-icon" />
        <MenuLabel title={title} />
        <ExpandMore
          sx={{ fontSize: 16, transform: open ? 'rotate(180deg)' : 'none', transition: 'transform .3s' }}
        />
      </Box>
      <Collapse in={open} timeout={200} unmountOnExit>
        <MenuList role="menu" nodes={node.children} depth={depth + 1} {...state} collapsed={false} />
      </Collapse>
    </li>
  );
}
