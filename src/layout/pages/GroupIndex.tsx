/**
 * A level of the route tree that is a page of its own (the product's `/industry/groups`, parent of the
 * registry's authors, artWork, bidUser and users): its translated title and a link to each page of the
 * level the signed-in roles may see, in menu order. The level's pages are the sidebar group named by the
 * route's `meta.activeMenu` (e.g. `/industry/artwork`), so the two never disagree.
 */
import { Link as RouterLink } from 'react-router';
import { Link, List, ListItem, Paper, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { MenuNode } from '../../shell/router';
import { useShell } from '../ShellContext';
import { routeTitle } from '../routeTitle';

/** The menu node at `path`, searched through the groups. */
function findNode(nodes: MenuNode[], path: string): MenuNode | undefined {
  for (const n of nodes) {
    if (n.path === path) return n;
    const inner = n.children && findNode(n.children, path);
    if (inner) return inner;
  }
  return undefined;
}

/** The page of a route-tree level; see the module docstring. */
export function GroupIndex() {
  const translate = useTranslate();
  const { match, menu } = useShell();
  const title = routeTitle(translate, match?.route.meta?.title ?? '');
  const level = match?.route.meta?.activeMenu;
  const pages = (level && findNode(menu, level)?.children) || [];
  return (
    <Paper data-testid="group-index" elevation={0} sx={{ p: { xs: 2, md: 4 }, mt: 1 }}>
      <Typography component="h1" variant="h5" sx={{ mb: 1 }}>
        {title}
      </Typography>
      <Typography color="text.secondary">{translate('shell.page.groupBody', { title })}</Typography>
      <List>
        {pages.map((p) => (
          <ListItem key={p.key} disableGutters>
            <Link component={RouterLink} to={p.path} data-group-entry={p.path}>
              {routeTitle(translate, p.title)}
            </Link>
          </ListItem>
        ))}
      </List>
    </Paper>
  );
}
