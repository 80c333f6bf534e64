/**
 * `ChainSearch` (/baas/search?q=): finds a block by number (in every channel) or by block hash, or a
 * transaction by id (GET /baas-api/search), and links to what it found.
 */
import { Link as RouterLink, useSearchParams } from 'react-router';
import { Alert, Box, Card, List, ListItemButton, ListItemText, Stack } from '@mui/material';
import { Title, useTranslate } from 'react-admin';
import type { Page, SearchHit } from './api';
import { Loaded, useBaas } from './common';
import { SearchBox } from './Dashboard';
import { LedgerAlarms } from './LedgerAlarms';

export function ChainSearch() {
  const translate = useTranslate();
  const [params] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const res = useBaas<Page<SearchHit>>('/search', { q }, q.length > 0);
  return (
    <Box sx={{ p: 2 }}>
      <LedgerAlarms />
      <Title title={translate('blockchain.title.search')} />
      <Stack spacing={2}>
        <SearchBox key={q} initial={q} />
        {!q && <Alert severity="info">{translate('blockchain.search.hint')}</Alert>}
        {q && (
          <Loaded loading={res.isPending} error={res.error}>
            {res.data?.total === 0 ? (
              <Alert severity="warning">{translate('blockchain.search.none', { q })}</Alert>
            ) : (
              <Card variant="outlined">
                <List data-testid="search-results">
                  {res.data?.list.map((h) => (
                    <ListItemButton
                      key={`${h.type}-${h.channelId}-${h.number}-${h.txId ?? ''}`}
                      component={RouterLink}
                      to={
                        h.type === 'block'
                          ? `/baas/block/${h.channelId}/${h.number}`
                          : `/baas/transaction/${h.txId}`
                      }
                    >
                      <ListItemText
                        primary={translate(`blockchain.search.${h.type}`, {
                          number: h.number,
                          channel: h.channel,
                        })}
                        secondary={h.txId ?? h.blockHash}
                        secondaryTypographyProps={{ sx: { fontFamily: 'monospace', wordBreak: 'break-all' } }}
                      />
                    </ListItemButton>
                  ))}
                </List>
              </Card>
            )}
          </Loaded>
        )}
      </Stack>
    </Box>
  );
}
