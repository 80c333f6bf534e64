/**
 * The tab strip of visited pages (vue-element-admin `layout/components/TagsView`): one tab per
 * visited named route, the dashboard pinned; click to go back to the tab's full path (with its
 * query), × or middle click to close, right click for a 105 px menu: refresh, close, close others,
 * close all. After closing the active tab the user goes to the last remaining tab, or to `/`.
 */
import { useContext, useEffect, useRef, useState, type MouseEvent } from 'react';
import { Link, UNSAFE_DataRouterContext, useLocation, useNavigate } from 'react-router';
import { Box, Paper } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { useTranslate } from 'react-admin';
import { afterClose, tagPathOf, tagsReducer, type VisitedView } from '../shell/tagsView';
import { useCloseAfterLeaving } from './closeAfterLeaving';
import { useShell } from './ShellContext';
import { SHELL } from './theme';
import { recordTagText, routeTitle } from './routeTitle';

/** The tab strip. */
export function TagsView() {
  const { tags, dispatchTags, prefs, match: shellMatch } = useShell();
  const translate = useTranslate();
  const location = useLocation();
  const navigate = useNavigate();
  const [menu, setMenu] = useState<{ x: number; y: number; view: VisitedView } | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const color = prefs.settings.theme;

  useEffect(() => {
    if (!menu) return;
    const close = () => setMenu(null);
    document.body.addEventListener('click', close);
    return () => document.body.removeEventListener('click', close);
  }, [menu]);

  // Keep the active tab in view.
  useEffect(() => {
    const el = scroller.current?.querySelector<HTMLElement>('[aria-current="page"]');
    el?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [location.pathname, tags.visited.length]);

  // A tab route (`meta.tabOf`) shows as the tab of its page.
  const current = shellMatch ? tagPathOf(shellMatch, location.pathname) : location.pathname;
  const isActive = (v: VisitedView) => v.path === current;
  /** A tab's text: the page title, or `<resource>: <record name>` on a record's page. */
  const tagText = (v: VisitedView) =>
    v.record ? recordTagText(translate, v.record) : routeTitle(translate, v.title);

  // Closing the shown tab leaves its page: with unsaved edits (a blocked navigation) the tabs close only once
  // the page is left, so cancelling the prompt keeps the tab; otherwise at once, in order (issue 21). A saved
  // add page closes its tab the same way (createSuccess.ts).
  const closeAfterLeaving = useCloseAfterLeaving(dispatchTags);
  const close = (view: VisitedView) => {
    if (view.affix) return;
    const next = tagsReducer(tags, { type: 'close', path: view.path });
    const to = afterClose(next, view.path, current);
    if (to) closeAfterLeaving(to, { type: 'close', path: view.path });
    else dispatchTags({ type: 'close', path: view.path });
  };
  const closeOthers = (view: VisitedView) => {
    if (isActive(view)) dispatchTags({ type: 'closeOthers', path: view.path });
    else closeAfterLeaving(view.fullPath, { type: 'closeOthers', path: view.path });
  };
  const closeAll = (view: VisitedView) => {
    const next = tagsReducer(tags, { type: 'closeAll' });
    if (next.visited.some((v) => v.path === current)) dispatchTags({ type: 'closeAll' });
    else closeAfterLeaving(afterClose(next, view.path, view.path) ?? '/', { type: 'closeAll' });
  };
  // Refresh remounts the page (src/layout/keepAlive.tsx drops a page passing through `/redirect/`); its kept
  // scroll position goes too, unless unsaved edits block the navigation and the prompt is cancelled.
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  const refresh = (view: VisitedView) => {
    void navigate(`/redirect${view.fullPath}`, { replace: true });
    const blocked = [...(router?.state.blockers.values() ?? [])].some((b) => b.state === 'blocked');
    if (!blocked) dispatchTags({ type: 'uncache', path: view.path });
  };

  const onContextMenu = (e: MouseEvent, view: VisitedView) => {
    e.preventDefault();
    const left = Math.min(e.clientX, window.innerWidth - 105 - 8);
    setMenu({ x: left, y: e.clientY, view });
  };

  return (
    <Box
      className="tags-view-container"
      data-testid="tags-view"
      sx={{
        height: SHELL.tagsViewHeight,
        width: '100%',
        bgcolor: '#fff',
        borderBottom: '1px solid #d8dce5',
        boxShadow: '0 1px 3px 0 rgba(0,0,0,.12), 0 0 3px 0 rgba(0,0,0,.04)',
      }}
    >
      <Box
        ref={scroller}
        role="tablist"
        aria-label={translate('shell.tagsView.label')}
        sx={{
          display: 'flex',
          alignItems: 'center',
          height: '100%',
          overflowX: 'auto',
          overflowY: 'hidden',
          whiteSpace: 'nowrap',
          '&::-webkit-scrollbar': { height: 0 },
        }}
      >
        {tags.visited.map((v, i) => {
          const active = isActive(v);
          return (
            <Box
              key={v.path}
              component={Link}
              to={v.fullPath}
              role="tab"
              aria-selected={active}
              aria-current={active ? 'page' : undefined}
              data-tag-path={v.path}
              className={`tags-view-item${active ? ' active' : ''}`}
              onContextMenu={(e: MouseEvent) => onContextMenu(e, v)}
              onAuxClick={(e: MouseEvent) => {
                if (e.button === 1) {
                  e.preventDefault();
                  close(v);
                }
              }}
              sx={{
                display: 'inline-flex',
                alignItems: 'center',
                position: 'relative',
                height: 26,
                lineHeight: '26px',
                border: '1px solid',
                borderColor: active ? color : '#d8dce5',
                color: active ? '#fff' : '#495060',
                bgcolor: active ? color : '#fff',
                px: '8px',
                fontSize: 12,
                ml: i === 0 ? '15px' : '5px',
                mr: i === tags.visited.length - 1 ? '15px' : 0,
                textDecoration: 'none',
                flexShrink: 0,
                '&::before': active
                  ? {
                      content: '""',
                      background: '#fff',
                      display: 'inline-block',
                      width: 8,
                      height: 8,
                      borderRadius: '50%',
                      mr: '4px',
                    }
                  : {},
              }}
            >
              {tagText(v)}
              {!v.affix && (
                <Box
                  component="span"
                  role="button"
                  aria-label={`${translate('shell.tagsView.close')} ${tagText(v)}`}
                  data-testid="tag-close"
                  onClick={(e: MouseEvent) => {
                    e.preventDefault();
                    e.stopPropagation();
                    close(v);
                  }}
                  sx={{
                    display: 'inline-flex',
                    ml: '4px',
                    width: 16,
                    height: 16,
                    borderRadius: '50%',
                    alignItems: 'center',
                    justifyContent: 'center',
                    '&:hover': { bgcolor: '#b4bccc', color: '#fff' },
                  }}
                >
                  <CloseIcon sx={{ fontSize: 12 }} />
                </Box>
              )}
            </Box>
          );
        })}
      </Box>
      {menu && (
        <Paper
          component="ul"
          role="menu"
          data-testid="tags-contextmenu"
          elevation={3}
          sx={{
            position: 'fixed',
            left: menu.x,
            top: menu.y,
            width: 105,
            zIndex: 3000,
            listStyle: 'none',
            m: 0,
            py: '5px',
            px: 0,
            fontSize: 12,
            fontWeight: 400,
            color: '#333',
            borderRadius: '4px',
            '& li': { m: 0, px: '16px', py: '7px', cursor: 'pointer', '&:hover': { bgcolor: '#eee' } },
          }}
        >
          <li role="menuitem" onClick={() => refresh(menu.view)}>
            {translate('shell.tagsView.refresh')}
          </li>
          {!menu.view.affix && (
            <li role="menuitem" onClick={() => close(menu.view)}>
              {translate('shell.tagsView.close')}
            </li>
          )}
          <li role="menuitem" onClick={() => closeOthers(menu.view)}>
            {translate('shell.tagsView.closeOthers')}
          </li>
          <li role="menuitem" onClick={() => closeAll(menu.view)}>
            {translate('shell.tagsView.closeAll')}
          </li>
        </Paper>
      )}
    </Box>
  );
}
