/**
 * Closing tabs of the tab strip that needs leaving the page shown (its × or "Close all" on the active
 * tab): the navigation carries the tab action in the history entry's state (`{ tagsAction }`), and the
 * action is applied when the new location is reached. A navigation that is blocked — react-admin's
 * unsaved-edits prompt (`warnWhenUnsavedChanges`, react-router's `useBlocker`) — closes nothing until it is
 * confirmed: answered with Cancel, it never reaches its location, so the tab stays, the page keeps its
 * edits, and no close is left pending to strike on a later navigation. A navigation that is not blocked
 * (nothing unsaved) closes at once, in the same event as the click, so the strip never shows the tab after
 * the address has left it; reaching the location applies the action again, which changes nothing.
 * The entry's state is cleared once its action is applied (a replace to the same address), so neither going
 * back to it nor a reload closes anything again.
 */
import { useCallback, useContext, useEffect, useRef, type Dispatch } from 'react';
import { UNSAFE_DataRouterContext, useLocation, useNavigate } from 'react-router';
import type { TagsAction, TagsNavigationState } from '../shell/tagsView';

/**
 * `(to, action)`: navigates to `to` and dispatches `action` at once, or, when the navigation is blocked
 * (unsaved edits), only once the navigation is confirmed and `to` reached (see the module doc).
 */
export function useCloseAfterLeaving(
  dispatch: Dispatch<TagsAction>,
): (to: string, action: TagsAction) => void {
  const navigate = useNavigate();
  const location = useLocation();
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  const applied = useRef(new Set<string>());
  useEffect(() => {
    const action = (location.state as TagsNavigationState | null)?.tagsAction;
    if (!action || applied.current.has(location.key)) return;
    applied.current.add(location.key);
    dispatch(action);
    // The entry forgets its action, so neither a reload nor a later visit of it applies it again.
    const { tagsAction: _done, ...rest } = location.state as TagsNavigationState;
    navigate(
      { pathname: location.pathname, search: location.search, hash: location.hash },
      { replace: true, state: Object.keys(rest).length ? rest : null },
    );
  }, [location.key, location.state, dispatch]);
  return useCallback(
    (to: string, action: TagsAction) => {
      const state: TagsNavigationState = { tagsAction: action };
      // A data router checks its blockers synchronously, before the navigation's first await: right after
      // the call, a blocked navigation shows as a blocker in the "blocked" state.
      void navigate(to, { state });
      const blocked = [...(router?.state.blockers.values() ?? [])].some((b) => b.state === 'blocked');
      if (!blocked) dispatch(action);
    },
    [navigate, router, dispatch],
  );
}
