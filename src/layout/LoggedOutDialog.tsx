/**
 * The "logged out" confirm dialog opened by envelope code 2 (token expired, revoked or unknown), as
 * vue-element-admin's `utils/request.js` has it: title "Confirm logout", buttons re-login and close.
 * Re-login clears the token and reloads (the guard then sends the user to the login page with the
 * current page as redirect); close keeps the user on the page, and the other code-2 answers of that
 * page do not reopen it.
 */
import { useSyncExternalStore } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useTranslate } from 'react-admin';
import { cookieTokenStore } from '../authProvider';
import { clearLoggedOut, isLoggedOutSignalled, onLoggedOutChange } from '../shell/session';

/** The dialog; open while the code-2 signal is raised. */
export function LoggedOutDialog() {
  const translate = useTranslate();
  const open = useSyncExternalStore(onLoggedOutChange, isLoggedOutSignalled, isLoggedOutSignalled);
  return (
    <Dialog
      open={open}
      onClose={() => clearLoggedOut()}
      aria-labelledby="logged-out-title"
      data-testid="logged-out-dialog"
    >
      <DialogTitle id="logged-out-title">{translate('shell.session.loggedOutTitle')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{translate('shell.session.loggedOutBody')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => clearLoggedOut()}>{translate('shell.session.close')}</Button>
        <Button
          variant="contained"
          data-testid="relogin"
          onClick={() => {
            cookieTokenStore.remove();
            window.location.reload();
          }}
        >
          {translate('shell.session.relogin')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
