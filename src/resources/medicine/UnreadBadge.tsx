/**
 * The navbar's unread count: a mail icon with the number of the signed-in account's unread messages
 * (`GET /medicine-api/message/unreadCount`, refreshed every 30 s and after a message is read), linking to
 * Medicine > Messages. Shown to accounts whose token carries the `company` role.
 */
import { Badge, Button, Card, CardContent, IconButton, Tooltip, Typography } from '@mui/material';
import MailIcon from '@mui/icons-material/Mail';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router';
import { MEDICINE_KEY, unreadCount } from './api';

/** Path of Medicine > Messages (src/shell/routes.ts). */
export const MESSAGES_PATH = '/medicine/messages';

export function UnreadBadge() {
  const translate = useTranslate();
  const q = useQuery({
    queryKey: [MEDICINE_KEY, 'unread'],
    queryFn: unreadCount,
    refetchInterval: 30_000,
  });
  const count = q.data ?? 0;
  const label = translate('shell.medicine.unread', { smart_count: count });
  return (
    <Tooltip title={label}>
      <IconButton component={Link} to={MESSAGES_PATH} aria-label={label} data-testid="unread-messages">
        <Badge badgeContent={count} color="error" data-testid="unread-count" data-count={count}>
          <MailIcon />
        </Badge>
      </IconButton>
    </Tooltip>
  );
}

/** The dashboard's card for a company administrator: the unread count and a link to Messages. */
export function UnreadCard() {
  const translate = useTranslate();
  const q = useQuery({ queryKey: [MEDICINE_KEY, 'unread'], queryFn: unreadCount, refetchInterval: 30_000 });
  return (
    <Card elevation={0} data-testid="dashboard-unread" sx={{ maxWidth: 480 }}>
      <CardContent>
        <Typography sx={{ fontWeight: 600 }}>
          {translate('shell.medicine.unread', { smart_count: q.data ?? 0 })}
        </Typography>
        <Button component={Link} to={MESSAGES_PATH} startIcon={<MailIcon />} sx={{ mt: 1 }}>
          {translate('shell.medicine.inbox')}
        </Button>
      </CardContent>
    </Card>
  );
}
