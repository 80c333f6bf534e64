/**
 * What a record page (Show, Edit: src/schema-ui/views.tsx) does when its `getOne` is refused.
 *
 * react-admin's default (ra-core useShowController / useEditController) notifies
 * `ra.notification.item_doesnt_exist` and redirects to the list. That is right for a record that is not
 * there, but not when the session ended (envelope code 2: token expired, revoked or unknown): the
 * shell then opens its "Confirm logout" dialog (src/layout/LoggedOutDialog.tsx), and the product keeps
 * the page the operator was on behind it (specification §8: code 2 opens a confirm dialog; on confirm
 * the token is cleared and the page reloads, so the login page's redirect is that page). So on code 2
 * the page stays where it is, without the "does not exist" message; any other refusal keeps
 * react-admin's default.
 */
import { useNotify, useRedirect } from 'react-admin';
import { sessionEnded } from '../shell/session';

/** The `queryOptions` of a record page of `resource` (see the module doc). */
export function useRecordQueryOptions(resource: string): { onError: (error: unknown) => void } {
  const notify = useNotify();
  const redirect = useRedirect();
  return {
    onError: (error) => {
      if (sessionEnded(error)) return;
      notify('ra.notification.item_doesnt_exist', { type: 'error' });
      redirect('list', resource);
    },
  };
}
