/**
 * Saved views and the column chooser of every generic list (issue 21 item 4; server side
 * server/routes/dev-api/views):
 * - `ColumnsButton`: react-admin's SelectColumnsButton over the list's DatagridConfigurable (preference
 *   key `<resource>.datagrid`, columns kept in the store as `preferences.<resource>.datagrid.columns`);
 * - `SavedViewsButton`: a menu of the account's saved views of the list and those others share; picking
 *   one applies its filter, sort and columns; "Save current view…" names the current ones (optionally
 *   shared); the owner deletes a view from the menu;
 * - `LastViewSync`: keeps the list's current filter, sort and columns as the account's last view on the
 *   server (`POST /dev-api/views/last`, a second after the last change) and, on the list's first showing in
 *   a session, restores it (`GET /dev-api/views/last`), so that signing out and in again brings it back.
 * Views keep their columns by source; a view is applied as it fits the schema now (viewRestore.ts
 * `restorableView`): a field removed since it was saved is left out of its filter, sort and columns.
 */
import { useEffect, useRef, useState } from 'react';
import {
  Button as MuiButton,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  IconButton,
  ListItemText,
  Menu,
  MenuItem,
  TextField,
} from '@mui/material';
import BookmarksIcon from '@mui/icons-material/Bookmarks';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import {
  Button,
  SelectColumnsButton,
  useListContext,
  useNotify,
  useResourceContext,
  useStore,
  useTranslate,
} from 'react-admin';
import { useNavigate } from 'react-router';
import { getToken, httpClient } from '../dataProvider/httpClient';
import { toQuery } from '../dataProvider';
import { schemaForResource } from '../../kernel/dialect/schemaRegistry';
import {
  columnSources,
  recordFields,
  renamedFields,
  restorableView,
  type AvailableColumn,
  type ViewSettings,
} from './viewRestore';

interface SavedView extends ViewSettings {
  id: number;
  name: string;
  account: string;
  mine: boolean;
  shared: boolean;
}

/** The react-admin store key of a list's chosen columns (DatagridConfigurable's default preference key). */
const columnsKey = (resource: string) => `preferences.${resource}.datagrid.columns`;

async function viewsGet<T>(path: string, resource: string): Promise<T> {
  return (await httpClient<T>(`/dev-api/views${path}${toQuery({ resource })}`)).json.data;
}

async function viewsPost<T>(path: string, body: unknown): Promise<T> {
  return (await httpClient<T>(`/dev-api/views${path}`, { method: 'POST', body: JSON.stringify(body) })).json
    .data;
}

/**
 * The field names of `resource`'s records now and its renamed fields (old → new), or undefined and none
 * for a list without a resource schema.
 */
function fieldsOf(resource: string): { fields?: string[]; renamed: Record<string, string> } {
  try {
    const schema = schemaForResource(resource);
    return { fields: recordFields(schema), renamed: renamedFields(schema) };
  } catch {
    return { renamed: {} };
  }
}

/**
 * The list's current filter, sort and columns (columns by source: viewRestore.ts), and a function applying
 * saved ones; `fit` makes a saved view fit for the list as the schema is now (fields removed since left out).
 */
function useViewSettings() {
  const resource = useResourceContext()!;
  const { filterValues, sort, setFilters, setSort } = useListContext();
  const [columns, setColumns] = useStore<string[] | undefined>(columnsKey(resource));
  const [available] = useStore<AvailableColumn[]>(`preferences.${resource}.datagrid.availableColumns`, []);
  const current: ViewSettings = {
    filter: filterValues ?? {},
    sort: sort ?? null,
    columns: columnSources(columns, available),
  };
  const fit = (v: ViewSettings) => {
    const { fields, renamed } = fieldsOf(resource);
    return restorableView(v, available, fields, renamed);
  };
  const apply = (saved: ViewSettings) => {
    const v = fit(saved);
    if (v.sort) setSort(v.sort);
    setFilters(v.filter, {});
    setColumns(v.columns ?? undefined);
  };
  return { resource, current, apply, fit, setColumns };
}

/** The page shown, from the address bar (hash route `#/path?query`): `/path`. */
const shownPage = () => window.location.hash.split('?')[0].slice(1);

/**
 * Restores view `v` on the list at `page` (its path), if that page is still the one shown: one replace of
 * the list's own address with the view's filter and sort, at once. react-admin's `setFilters`/`setSort`
 * navigate a tick later, relative to the list's route: had the operator moved on meanwhile (the list
 * stays mounted until the next page is rendered), that navigation would bring him back to the list.
 */
function useRestoreView() {
  const { setColumns, fit } = useViewSettings();
  const { perPage } = useListContext();
  const navigate = useNavigate();
  return (saved: ViewSettings, page: string) => {
    if (shownPage() !== page) return;
    const v = fit(saved);
    const hash = window.location.hash;
    const q = new URLSearchParams(hash.includes('?') ? hash.slice(hash.indexOf('?') + 1) : '');
    q.set('filter', JSON.stringify(v.filter ?? {}));
    q.set('displayedFilters', '{}');
    if (v.sort) {
      q.set('sort', v.sort.field);
      q.set('order', v.sort.order);
    }
    q.set('page', '1');
    if (!q.has('perPage')) q.set('perPage', String(perPage));
    navigate(`${page}?${q.toString()}`, { replace: true });
    setColumns(v.columns ?? undefined);
  };
}

/** The column chooser of a list (react-admin SelectColumnsButton). */
export function ColumnsButton() {
  return <SelectColumnsButton />;
}

/** Lists whose last view was restored, by session (`<token>:<resource>`): once per list and sign-in. */
const restored = new Set<string>();

/**
 * Restored views the list has not shown yet, by session key: the settings (`settingsText`) and when they
 * were applied (ms). Until the list shows them (its filter reaches the address a moment later) it is
 * not saved, or the state from before the restore would overwrite the restored view on the server.
 * A restore not shown within `PENDING_MS` (the operator changed the list first) no longer holds saves.
 */
const pending = new Map<string, { text: string; at: number }>();
const PENDING_MS = 3000;

/** A view's settings as text with sorted object keys, to compare views however their keys were ordered. */
function settingsText(v: ViewSettings): string {
  const sorted = (x: unknown): unknown =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(
          Object.keys(x)
            .sort()
            .map((k) => [k, sorted((x as Record<string, unknown>)[k])]),
        )
      : x;
  return JSON.stringify(sorted({ filter: v.filter ?? {}, sort: v.sort, columns: v.columns ?? null }));
}

/** Whether the address bar (hash route `#/path?filter=…`) carries a list filter. */
function filterInAddress(): boolean {
  const hash = window.location.hash;
  const q = hash.indexOf('?');
  return q >= 0 && new URLSearchParams(hash.slice(q + 1)).has('filter');
}

/**
 * Saves the list's view as the account's last, and restores it on the list's first showing (module doc).
 * A list opened with a filter in its address (a link, the return after signing in) shows that filter: the
 * address wins over the last view. `ready` is state, not a ref: the save below must run again once the
 * restore has settled, or a view that does not change after it (a list opened with its filter in the
 * address, no last view on the server yet) would never be saved.
 */
export function LastViewSync() {
  const { resource, current } = useViewSettings();
  const restore = useRestoreView();
  const text = settingsText(current);
  const textRef = useRef(text);
  textRef.current = text;
  const key = `${getToken() ?? ''}:${resource}`;
  const [ready, setReady] = useState(() => restored.has(key));
  useEffect(() => {
    if (restored.has(key)) {
      setReady(true);
      return;
    }
    setReady(false);
    let live = true;
    // The list stays mounted a moment after the operator has moved on (until the next page is rendered):
    // apply the last view only while its page is still the one shown (useRestoreView).
    const page = shownPage();
    (filterInAddress() ? Promise.resolve(null) : viewsGet<ViewSettings | null>('/last', resource))
      .then((last) => {
        if (!live || !last || shownPage() !== page) return;
        const lastText = settingsText({ ...last, sort: last.sort ?? current.sort });
        // The list already shows that view: nothing to change (a navigation would reload its rows).
        if (lastText === textRef.current) return;
        pending.set(key, { text: lastText, at: Date.now() });
        restore(last, page);
      })
      .catch(() => undefined)
      .finally(() => {
        if (!live) return;
        restored.add(key);
        setReady(true);
      });
    return () => {
      live = false;
    };
    // Once per list and sign-in (`restore` is a new function on every render).
  }, [key]);
  useEffect(() => {
    if (!ready) return;
    const restoring = pending.get(key);
    if (restoring && Date.now() - restoring.at < PENDING_MS) {
      // The restored view is what the server holds: nothing to save once the list shows it.
      if (restoring.text === text) pending.delete(key);
      return;
    }
    pending.delete(key);
    const timer = setTimeout(() => {
      viewsPost('/last', { resource, ...current }).catch(() => undefined);
    }, 1000);
    return () => clearTimeout(timer);
    // `current` is `text` as an object (a new object on every render).
  }, [key, resource, text, ready]);
  return null;
}

function SaveViewDialog({
  open,
  onClose,
  onSave,
}: {
  open: boolean;
  onClose: () => void;
  onSave: (name: string, shared: boolean) => void;
}) {
  const translate = useTranslate();
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{translate('schemaUi.views.save')}</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          fullWidth
          margin="dense"
          label={translate('schemaUi.views.name')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          slotProps={{ htmlInput: { maxLength: 60, 'data-testid': 'view-name' } }}
        />
        <FormControlLabel
          control={<Checkbox checked={shared} onChange={(e) => setShared(e.target.checked)} />}
          label={translate('schemaUi.views.shared')}
        />
      </DialogContent>
      <DialogActions>
        <MuiButton onClick={onClose}>{translate('ra.action.cancel')}</MuiButton>
        <MuiButton variant="contained" disabled={!name.trim()} onClick={() => onSave(name.trim(), shared)}>
          {translate('ra.action.save')}
        </MuiButton>
      </DialogActions>
    </Dialog>
  );
}

/** The saved views menu of a list (module doc). */
export function SavedViewsButton() {
  const translate = useTranslate();
  const notify = useNotify();
  const { resource, current, apply } = useViewSettings();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [views, setViews] = useState<SavedView[]>([]);
  const [dialog, setDialog] = useState(false);
  const fail = (err: unknown) => {
    const message = (err as Error).message;
    notify(message, { type: 'error', messageArgs: { _: message } });
  };
  const open = async (target: HTMLElement) => {
    setAnchor(target);
    try {
      setViews((await viewsGet<{ list: SavedView[] }>('/list', resource)).list);
    } catch (err) {
      fail(err);
    }
  };
  const save = async (name: string, shared: boolean) => {
    try {
      await viewsPost('/add', { resource, name, shared, ...current });
      notify('schemaUi.views.saved', { type: 'success', messageArgs: { name } });
      setDialog(false);
    } catch (err) {
      fail(err);
    }
  };
  const remove = async (id: number) => {
    try {
      await viewsPost('/delete', { id });
      setViews(views.filter((v) => v.id !== id));
      notify('schemaUi.views.deleted', { type: 'info' });
    } catch (err) {
      fail(err);
    }
  };
  return (
    <>
      <Button label="schemaUi.views.button" onClick={(e) => open(e.currentTarget)}>
        <BookmarksIcon />
      </Button>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setDialog(true);
          }}
        >
          {translate('schemaUi.views.save')}
        </MenuItem>
        {!views.length && <MenuItem disabled>{translate('schemaUi.views.none')}</MenuItem>}
        {views.map((v) => (
          <MenuItem
            key={v.id}
            data-testid="saved-view"
            onClick={() => {
              apply(v);
              setAnchor(null);
            }}
          >
            <ListItemText
              primary={v.name}
              secondary={v.mine ? undefined : translate('schemaUi.views.sharedBy', { account: v.account })}
            />
            {v.mine && (
              <IconButton
                size="small"
                aria-label={translate('schemaUi.views.delete')}
                onClick={(e) => {
                  e.stopPropagation();
                  void remove(v.id);
                }}
              >
                <DeleteIcon fontSize="small" />
              </IconButton>
            )}
          </MenuItem>
        ))}
      </Menu>
      <SaveViewDialog open={dialog} onClose={() => setDialog(false)} onSave={save} />
    </>
  );
}
