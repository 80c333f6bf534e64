/**
 * Closing tabs of the tab strip that needs leaving the page shown (its × or "Close all" on the active
 * tab): the navigation goes first, carrying the tab action in the history entry's state
 * (`{ tagsAction }`), and the action is applied when the new location is reached. A navigation that is
 * blocked — react-admin's unsaved-edits prompt (`warnWhenUnsavedChanges`, react-router's `useBlocker`)
 * answered with Cancel — never reaches it: the tab stays, the page keeps its edits, and no close is left
 * pending to strike on a later navigation. The entry's state is cleared once its action is applied (a
 * replace to the same address), so neither going back to it nor a reload closes anything again.
 */
import { useCallback, useEffect, useRef, type Dispatch } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { TagsAction, TagsNavigationState } from '../shell/tagsView';

/** `(to, action)`: navigates to `to`, then dispatches `action` once there (see the module doc). */
export function useCloseAfterLeaving(
  dispatch: Dispatch<TagsAction>,
): (to: string, action: TagsAction) => void {
  const navigate = useNavigate();
  const location = useLocation();
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
      navigate(to, { state });
    },
    [navigate],
  );
}
