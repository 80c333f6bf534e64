/**
 * Medicine > Messages (`/medicine/messages`): the signed-in company administrator's inbox, the
 * notifications operators sent to its company (server/routes/medicine-api/message). Above it, the
 * account's company; tabs All / Unread / Read; each message shows its title, company, sent time and
 * content, and an unread one a "Mark as read" button (`POST /medicine-api/message/read`), which also
 * lowers the navbar's count. Cards, so it reads the same at 375 px.
 */
import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Chip,
  Pagination,
  Skeleton,
  Stack,
  Tab,
  Tabs,
  Typography,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import { inbox, markRead, MEDICINE_KEY, myCompanies, type Message } from './api';

const PAGE_SIZE = 10;
type Filter = 'all' | 'sent' | 'read';

function MessageCard({ m, onRead, busy }: { m: Message; onRead: () => void; busy: boolean }) {
  const translate = useTranslate();
  const unread = m.status === 'sent';
  return (
    <Card
      elevation={0}
      data-testid="message"
      data-status={m.status}
      sx={{ borderLeft: 4, borderColor: unread ? 'error.main' : 'divider' }}
    >
      <CardContent>
        <Stack direction="row" spacing={1} alignItems="center" sx={{ mb: 0.5, flexWrap: 'wrap' }}>
          <Typography component="h2" variant="subtitle1" sx={{ fontWeight: unread ? 700 : 500 }}>
            {m.title}
          </Typography>
          <Chip
            size="small"
            color={unread ? 'error' : 'default'}
            label={translate(`resources.notifications.enums.status.${unread ? 'sent' : 'read'}`)}
          />
        </Stack>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {translate('shell.medicine.from', { company: m.companyName ?? `#${m.companyId}` })} ·{' '}
          {translate('shell.medicine.sentAt', { time: m.sendTime ?? '' })}
          {m.readTime
            ? ` · ${translate('shell.medicine.readAt', { time: m.readTime, account: m.readBy })}`
            : ''}
        </Typography>
        <Typography sx={{ mt: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{m.content}</Typography>
      </CardContent>
      {unread && (
        <CardActions>
          <Button size="small" onClick={onRead} disabled={busy} data-testid="mark-read">
            {translate('shell.medicine.markRead')}
          </Button>
        </CardActions>
      )}
    </Card>
  );
}

export function Messages() {
  const translate = useTranslate();
  const notify = useNotify();
  const client = useQueryClient();
  const [filter, setFilter] = useState<Filter>('all');
  const [page, setPage] = useState(1);
  const companies = useQuery({ queryKey: [MEDICINE_KEY, 'company'], queryFn: myCompanies });
  const list = useQuery({
    queryKey: [MEDICINE_KEY, 'inbox', filter, page],
    queryFn: () => inbox(page, PAGE_SIZE, filter === 'all' ? undefined : filter),
  });
  const read = useMutation({
    mutationFn: markRead,
    onSuccess: () => client.invalidateQueries({ queryKey: [MEDICINE_KEY] }),
    onError: (e) => notify((e as Error).message, { type: 'error' }),
  });
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / PAGE_SIZE));
  return (
    <Box data-testid="messages" sx={{ maxWidth: 960 }}>
      <Typography component="h1" variant="h6" sx={{ fontWeight: 600, mb: 1 }}>
        {translate('shell.medicine.inbox')}
      </Typography>
      {!!companies.data?.length && (
        <Typography sx={{ mb: 1 }} data-testid="my-company">
          {translate('shell.medicine.yourCompany')}:{' '}
          {companies.data.map((c) => `${c.companyName} (${c.creditCode})`).join('、')}
        </Typography>
      )}
      <Tabs
        value={filter}
        onChange={(_e, v: Filter) => {
          setFilter(v);
          setPage(1);
        }}
        sx={{ mb: 2 }}
      >
        <Tab value="all" label={translate('shell.medicine.all')} />
        <Tab value="sent" label={translate('shell.medicine.unreadTab')} />
        <Tab value="read" label={translate('shell.medicine.readTab')} />
      </Tabs>
      {list.isError && <Alert severity="error">{(list.error as Error).message}</Alert>}
      {list.isPending && <Skeleton variant="rectangular" height={120} />}
      {list.data && !list.data.list.length && (
        <Typography sx={{ color: 'text.secondary' }} data-testid="messages-empty">
          {translate('shell.medicine.empty')}
        </Typography>
      )}
      <Stack spacing={2}>
        {list.data?.list.map((m) => (
          <MessageCard key={m.id} m={m} busy={read.isPending} onRead={() => read.mutate(m.id)} />
        ))}
      </Stack>
      {pages > 1 && <Pagination sx={{ mt: 2 }} count={pages} page={page} onChange={(_e, p) => setPage(p)} />}
    </Box>
  );
}
