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
import { getToken, httpClient } from '../dataProvider/httpClient';
import { toQuery } from '../dataProvider';

interface ViewSettings {
  filter: Record<string, unknown>;
  sort: { field: string; order: 'ASC' | 'DESC' } | null;
  columns: string[] | null;
}

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

/** The list's current filter, sort and columns, and a function applying saved ones. */
function useViewSettings() {
  const resource = useResourceContext()!;
  const { filterValues, sort, setFilters, setSort } = useListContext();
  const [columns, setColumns] = useStore<string[] | undefined>(columnsKey(resource));
  const current: ViewSettings = { filter: filterValues ?? {}, sort: sort ?? null, columns: columns ?? null };
  const apply = (v: ViewSettings) => {
    if (v.sort) setSort(v.sort);
    setFilters(v.filter ?? {}, {});
    setColumns(v.columns ?? undefined);
  };
  return { resource, current, apply };
}

/** The column chooser of a list (react-admin SelectColumnsButton). */
export function ColumnsButton() {
  return <SelectColumnsButton />;
}

/** Lists whose last view was restored, by session (`<token>:<resource>`): once per list and sign-in. */
const restored = new Set<string>();

/** Saves the list's view as the account's last, and restores it on the list's first showing (module doc). */
export function LastViewSync() {
  const { resource, current, apply } = useViewSettings();
  const text = JSON.stringify(current);
  const key = `${getToken() ?? ''}:${resource}`;
  const ready = useRef(restored.has(key));
  useEffect(() => {
    if (ready.current) return;
    let live = true;
    viewsGet<ViewSettings | null>('/last', resource)
      .then((last) => {
        if (live && last) apply(last);
      })
      .catch(() => undefined)
      .finally(() => {
        restored.add(key);
        ready.current = true;
      });
    return () => {
      live = false;
    };
    // Once per list and sign-in (`apply` is a new function on every render).
  }, [key]);
  useEffect(() => {
    if (!ready.current) return;
    const timer = setTimeout(() => {
      viewsPost('/last', { resource, ...(JSON.parse(text) as ViewSettings) }).catch(() => undefined);
    }, 1000);
    return () => clearTimeout(timer);
  }, [resource, text]);
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
