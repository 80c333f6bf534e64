/**
 * The settings drawer (vue-element-admin `components/RightPanel` + `layout/components/Settings`): a
 * gear icon in the navbar's right menu (not the product's floating right-edge toggle, which covered the
 * EDIT links of lists, dashboard cards and the drawer's own switches: issue 12), opening a panel with the
 * theme colour (8 predefined colours) and the switches tagsView, fixedHeader and sidebarLogo. Choices
 * apply at once and persist (local storage, `src/shell/preferences.ts`). With the setting `showSettings`
 * off there is no gear icon (the product renders its right panel only `v-if="showSettings"`).
 */
import { useState } from 'react';
import { Box, Drawer, IconButton, Stack, Switch, Tooltip, Typography } from '@mui/material';
import SettingsIcon from '@mui/icons-material/Settings';
import CloseIcon from '@mui/icons-material/Close';
import CheckIcon from '@mui/icons-material/Check';
import { useTranslate } from 'react-admin';
import { setSetting, THEME_COLORS, type ShellSettings } from '../shell/preferences';
import { useShell } from './ShellContext';

/** The navbar's gear icon and the drawer it opens. */
export function SettingsDrawer() {
  const translate = useTranslate();
  const { prefs } = useShell();
  const [open, setOpen] = useState(false);
  const s = prefs.settings;
  const toggle = (key: Exclude<keyof ShellSettings, 'theme' | 'showSettings'>) => (
    <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ py: 0.5 }}>
      <Typography
        component="label"
        htmlFor={`setting-${key}`}
        sx={{ fontSize: 14, color: 'rgba(0,0,0,.65)' }}
      >
        {translate(`shell.settings.${key}`)}
      </Typography>
      <Switch
        id={`setting-${key}`}
        data-testid={`setting-${key}`}
        checked={s[key]}
        onChange={(e) => setSetting(key, e.target.checked)}
      />
    </Stack>
  );
  if (!s.showSettings) return null;
  return (
    <>
      <Tooltip title={translate('shell.settings.open')}>
        <IconButton
          aria-label={translate('shell.settings.open')}
          data-testid="settings-toggle"
          onClick={() => setOpen(true)}
          // In the chosen theme colour, as the product's toggle was.
          sx={{ color: s.theme }}
        >
          <SettingsIcon />
        </IconButton>
      </Tooltip>
      <Drawer anchor="right" open={open} onClose={() => setOpen(false)}>
        <Box sx={{ width: 260, p: 3 }} role="dialog" aria-label={translate('shell.settings.title')}>
          <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ mb: 2 }}>
            <Typography component="h3" sx={{ fontSize: 14, fontWeight: 700, color: 'rgba(0,0,0,.85)' }}>
              {translate('shell.settings.title')}
            </Typography>
            <IconButton aria-label={translate('shell.settings.close')} onClick={() => setOpen(false)}>
              <CloseIcon fontSize="small" />
            </IconButton>
          </Stack>
          <Typography sx={{ fontSize: 14, color: 'rgba(0,0,0,.65)', mb: 1 }}>
            {translate('shell.settings.theme')}
          </Typography>
          <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(4, 1fr)', gap: 1, mb: 2 }}>
            {THEME_COLORS.map((c) => (
              <Box
                key={c}
                component="button"
                type="button"
                aria-label={c}
                aria-pressed={s.theme === c}
                data-theme-color={c}
                onClick={() => setSetting('theme', c)}
                sx={{
                  height: 32,
                  border: 0,
                  borderRadius: 1,
                  bgcolor: c,
                  cursor: 'pointer',
                  color: '#fff',
                  display: 'flex',
                  alignItems: 'center',
                  justifyContent: 'center',
                  outline: s.theme === c ? '2px solid rgba(0,0,0,.25)' : 'none',
                  outlineOffset: 2,
                }}
              >
                {s.theme === c && <CheckIcon fontSize="small" />}
              </Box>
            ))}
          </Box>
          {toggle('tagsView')}
          {toggle('fixedHeader')}
          {toggle('sidebarLogo')}
        </Box>
      </Drawer>
    </>
  );
}
