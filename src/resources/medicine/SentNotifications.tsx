/**
 * Permission > Notifications (`/permission/notifications`): the notifications sent to accounts — the
 * notifications resource's generic list (schemas/notification.schema.json) with the permanent filter
 * `sent=1` (status sent or read), showing the company, recipients, sent time and who read it.
 */
import { Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { SchemaList } from '../../schema-ui/views';

export function SentNotifications() {
  const translate = useTranslate();
  return (
    <>
      <Typography sx={{ color: 'text.secondary', mb: 1 }}>
        {translate('shell.medicine.sentExplain')}
      </Typography>
      <SchemaList
        resource="notifications"
        filter={{ sent: 1 }}
        storeKey="sentNotifications"
        disableSyncWithLocation
        exporter={false}
      />
    </>
  );
}
