/**
 * Grant and revoke roles of an account (Permission > User rows and show page): one button per role the
 * accounts schema knows (`roles.items.enum`), calling `POST /dev-api/user/addAuth` or `delAuth`
 * `{id, role}`. The server refuses to take admin from the last admin and an account's only role; its
 * message is shown. Changing roles ends the account's sessions (server side).
 */
import { Button, Stack } from '@mui/material';
import { useNotify, useRecordContext, useTranslate } from 'react-admin';
import { schemaForResource } from '../../../kernel/dialect/schemaRegistry';
import { httpClient } from '../../dataProvider/httpClient';
import { useServerAction } from '../../utils/useServerAction';

const ROLES = schemaForResource('accounts').properties.roles.items!.enum as string[];

/** The grant/revoke buttons of the current record. */
export default function RoleButtons() {
  const record = useRecordContext<{ id: number; username: string; roles: string[] }>();
  const translate = useTranslate();
  const notify = useNotify();
  const { busy, run } = useServerAction();
  if (!record) return null;
  const toggle = (role: string, has: boolean) =>
    run(async () => {
      await httpClient(`/dev-api/user/${has ? 'delAuth' : 'addAuth'}`, {
        method: 'POST',
        body: JSON.stringify({ id: record.id, role }),
      });
      notify(has ? 'shell.accounts.revoked' : 'shell.accounts.granted', {
        type: 'success',
        messageArgs: {
          role: translate(`resources.accounts.enums.roles.${role}`, { _: role }),
          username: record.username,
        },
      });
    });
  return (
    <Stack direction="row" spacing={0.5} onClick={(e) => e.stopPropagation()}>
      {ROLES.map((role) => {
        const has = record.roles?.includes(role);
        const label = translate(`resources.accounts.enums.roles.${role}`, { _: role });
        return (
          <Button
            key={role}
            size="small"
            disabled={busy}
            color={has ? 'warning' : 'primary'}
            data-testid={`${has ? 'revoke' : 'grant'}-${role}`}
            onClick={() => void toggle(role, !!has)}
          >
            {translate(has ? 'shell.accounts.revoke' : 'shell.accounts.grant', { role: label })}
          </Button>
        );
      })}
    </Stack>
  );
}
