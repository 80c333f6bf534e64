/**
 * `ChannelList` (/baas/channel): the `channels` resource (name, block height, transactions, created).
 * `ChannelShow` (/baas/channel/:id): one channel (getOne) and its blocks, the `blocks` resource
 * filtered by `channelId`, newest first, with server-side pagination and a time-range filter on block
 * time (from/to, UTC): number, tx count, data hash, block hash, previous hash (shortened, copyable), time.
 * Both read through the dataProvider (schemas/channel.schema.json, schemas/block.schema.json).
 */
import type { ComponentType } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { Box, Button, Card, CardContent, Link, Stack, TextField, Typography } from '@mui/material';
import {
  DataTable,
  ListBase,
  ShowBase,
  Title,
  useListContext,
  useShowContext,
  useTranslate,
} from 'react-admin';
import type { BlockInfo, BlockRecord, ChannelInfo } from './api';
import { nameLink, HashField, ListPagination, Loaded, NoRows, tableSx } from './common';
import { LedgerAlarms } from './LedgerAlarms';

export function ChannelList() {
  const translate = useTranslate();
  return (
    <Box sx={{ p: 2 }}>
      <LedgerAlarms />
      <Title title={translate('blockchain.title.channels')} />
      <ListBase resource="channels" perPage={20} disableSyncWithLocation storeKey={false}>
        <Card variant="outlined">
          <DataTable<ChannelInfo> bulkActionButtons={false} sx={tableSx} rowClick={false} empty={<NoRows />}>
            <DataTable.Col source="name" disableSort render={nameLink('/baas/channel')} />
            <DataTable.NumberCol source="height" disableSort />
            <DataTable.NumberCol source="txCount" disableSort />
            <DataTable.Col source="createdAt" disableSort />
          </DataTable>
          <ListPagination />
        </Card>
      </ListBase>
    </Box>
  );
}

/** The time-range filter of a blocks list (`from`/`to`, minutes, UTC); setting one goes to page 1. */
function BlockTimeFilter() {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListContext();
  const set = (name: 'from' | 'to', value: string) =>
    setFilters({ ...filterValues, [name]: value || undefined }, undefined, false);
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      sx={{ p: 2 }}
      alignItems={{ xs: 'stretch', sm: 'center' }}
    >
      {(['from', 'to'] as const).map((name) => (
        <TextField
          key={name}
          size="small"
          type="datetime-local"
          label={translate(`blockchain.filter.${name}`)}
          value={filterValues[name] ?? ''}
          onChange={(e) => set(name, e.target.value)}
          slotProps={{
            inputLabel: { shrink: true },
            htmlInput: { step: 60, 'data-testid': `blocks-${name}` },
          }}
        />
      ))}
      {(filterValues.from || filterValues.to) && (
        <Button
          onClick={() => setFilters({ ...filterValues, from: undefined, to: undefined }, undefined, false)}
        >
          {translate('blockchain.filter.clear')}
        </Button>
      )}
    </Stack>
  );
}

/** A block number linking to the block page. */
export const blockLink = (b: BlockInfo) => (
  <Link component={RouterLink} to={`/baas/block/${b.channelId}/${b.number}`}>
    {b.number}
  </Link>
);

/** The blocks of a channel (the `blocks` resource, filtered by `channelId`), used by ChannelShow. */
export function BlocksTable({ channelId }: { channelId: number }) {
  return (
    <ListBase resource="blocks" filter={{ channelId }} perPage={20} disableSyncWithLocation storeKey={false}>
      <BlockTimeFilter />
      <Box data-testid="blocks-table" sx={{ overflowX: 'auto' }}>
        <DataTable<BlockRecord> bulkActionButtons={false} sx={tableSx} rowClick={false} empty={<NoRows />}>
          <DataTable.Col source="number" disableSort render={blockLink} />
          <DataTable.NumberCol source="txCount" disableSort />
          <DataTable.Col source="dataHash" disableSort field={HashField} />
          <DataTable.Col source="blockHash" disableSort field={HashField} />
          <DataTable.Col source="previousHash" disableSort field={HashField} />
          <DataTable.Col source="createdAt" disableSort cellSx={() => ({ whiteSpace: 'nowrap' })} />
        </DataTable>
      </Box>
      <ListPagination />
    </ListBase>
  );
}

function ChannelView({ id }: { id: number }) {
  const translate = useTranslate();
  const { record: ch, isPending, error } = useShowContext<ChannelInfo>();
  return (
    <Box sx={{ p: 2 }}>
      <LedgerAlarms />
      <Title title={translate('blockchain.title.channel', { name: ch?.name ?? id })} />
      <Loaded loading={isPending} error={error}>
        {ch && (
          <Stack spacing={2}>
            <Card variant="outlined">
              <CardContent>
                <Stack direction="row" spacing={4} flexWrap="wrap" useFlexGap>
                  <Typography variant="h6">{ch.name}</Typography>
                  <Typography>
                    {translate('resources.channels.fields.height')}: <b>{ch.height}</b>
                  </Typography>
                  <Typography>
                    {translate('resources.channels.fields.txCount')}: <b>{ch.txCount}</b>
                  </Typography>
                  <Typography color="text.secondary">
                    {translate('resources.channels.fields.createdAt')}: {ch.createdAt}
                  </Typography>
                  <Link component={RouterLink} to="/baas/channel">
                    {translate('blockchain.action.allChannels')}
                  </Link>
                </Stack>
              </CardContent>
            </Card>
            <Card variant="outlined">
              <BlocksTable channelId={id} />
            </Card>
          </Stack>
        )}
      </Loaded>
    </Box>
  );
}

/** Errors stay on the page (the default would redirect to the resource's list, which has no route). */
export const stayOnError = { onError: () => undefined, retry: false } as const;

/** The show page of a chain `resource` whose route's `:id` is a number: `View` shows that record. */
export function NumericIdShow({ resource, View }: { resource: string; View: ComponentType<{ id: number }> }) {
  const id = Number(useParams().id);
  return (
    <ShowBase resource={resource} id={id} queryOptions={stayOnError}>
      <View id={id} />
    </ShowBase>
  );
}

export function ChannelShow() {
  return <NumericIdShow resource="channels" View={ChannelView} />;
}
