/**
 * `BlockShow` (/baas/block/:channelId/:number): one record of the `blocks` resource (getOne, id
 * `channelId:number`): the header and its transactions, with the Merkle root and the block hash
 * recomputed in the browser (Web Crypto). `TransactionShow` (/baas/transaction/:txId): one record of the
 * `transactions` resource (getOne by tx id): every field, and its Merkle proof checked in the browser.
 * Both read through the dataProvider (schemas/block.schema.json, schemas/transaction.schema.json).
 */
import { useEffect, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { Alert, Box, Button, Card, CardContent, Chip, Link, Stack, Typography } from '@mui/material';
import {
  DataTable,
  ListContextProvider,
  ResourceContextProvider,
  ShowBase,
  Title,
  useList,
  useShowContext,
  usePermissions,
  useTranslate,
} from 'react-admin';
import { recordOfTransaction } from '../../schema-ui/chain';
import { checkBlockWeb, checkProofWeb, type ProofCheck } from '../../../common/ledger/webVerify';
import type { BlockInfo, CommittedTx, TxProof } from './api';
import { stayOnError } from './Channels';
import { Fields, Hash, ListPagination, Loaded, useBaas, tableSx } from './common';
import { LedgerAlarms } from './LedgerAlarms';

type BlockDetail = BlockInfo & { id: string; transactions: CommittedTx[] };

/** The transactions of a block, in block order, paged in the browser (they come with the block). */
function BlockTransactions({ txs }: { txs: CommittedTx[] }) {
  const list = useList({
    data: txs.map((t) => ({ ...t, id: t.txId })),
    perPage: 20,
    resource: 'transactions',
  });
  return (
    <ResourceContextProvider value="transactions">
      <ListContextProvider value={list}>
        <Box data-testid="block-transactions" sx={{ overflowX: 'auto' }}>
          <DataTable<CommittedTx & { id: string }> bulkActionButtons={false} sx={tableSx} rowClick={false}>
            <DataTable.Col source="txIndex" label="#" disableSort />
            <DataTable.Col
              source="txId"
              disableSort
              render={(tx) => (
                <Link
                  component={RouterLink}
                  to={`/baas/transaction/${tx.txId}`}
                  sx={{ fontFamily: 'monospace' }}
                >
                  {tx.txId.slice(0, 12)}…
                </Link>
              )}
            />
            <DataTable.Col source="chaincode" disableSort />
            <DataTable.Col source="function" disableSort />
            <DataTable.Col
              source="args"
              disableSort
              render={(tx) => tx.args.join(', ')}
              cellSx={() => ({
                maxWidth: 320,
                overflow: 'hidden',
                textOverflow: 'ellipsis',
                whiteSpace: 'nowrap',
                fontFamily: 'monospace',
              })}
            />
            <DataTable.Col source="creator" disableSort />
            <DataTable.Col source="timestamp" disableSort cellSx={() => ({ whiteSpace: 'nowrap' })} />
          </DataTable>
        </Box>
        {txs.length > 20 && <ListPagination />}
      </ListContextProvider>
    </ResourceContextProvider>
  );
}

function BlockView({ channelId, number }: { channelId: number; number: number }) {
  const translate = useTranslate();
  const { record, isPending, error } = useShowContext<BlockDetail>();
  // react-admin seeds getOne's cache with the row of a blocks list, which has no transactions: wait for
  // the block itself.
  const b = Array.isArray(record?.transactions) ? record : undefined;
  const [check, setCheck] = useState<{ ok: boolean; what?: string } | null>(null);
  useEffect(() => {
    setCheck(null);
    if (b) checkBlockWeb(b, b.transactions).then(setCheck, () => setCheck({ ok: false, what: 'dataHash' }));
  }, [b]);
  return (
    <Box sx={{ p: 2 }}>
      <LedgerAlarms />
      <Title title={translate('blockchain.title.block', { number, channel: b?.channel ?? channelId })} />
      <Loaded loading={isPending || (!b && !error)} error={error}>
        {b && (
          <Stack spacing={2}>
            <Card variant="outlined">
              <CardContent>
                <Fields
                  rows={[
                    [
                      'resources.blocks.fields.channel',
                      <Link component={RouterLink} to={`/baas/channel/${b.channelId}`}>
                        {b.channel}
                      </Link>,
                    ],
                    ['resources.blocks.fields.number', <b>{b.number}</b>],
                    ['resources.blocks.fields.blockHash', <Hash value={b.blockHash} full />],
                    ['resources.blocks.fields.dataHash', <Hash value={b.dataHash} full />],
                    ['resources.blocks.fields.previousHash', <Hash value={b.previousHash} full />],
                    ['resources.blocks.fields.txCount', b.txCount],
                    ['resources.blocks.fields.createdAt', `${b.createdAt} UTC`],
                  ]}
                />
                {check && (
                  <Alert severity={check.ok ? 'success' : 'error'} sx={{ mt: 2 }} data-testid="block-check">
                    {check.ok
                      ? translate('blockchain.verify.blockOk', { count: b.txCount })
                      : translate('blockchain.verify.blockBad', {
                          what: translate(`resources.blocks.fields.${check.what}`),
                        })}
                  </Alert>
                )}
                <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
                  <Button
                    component={RouterLink}
                    to={`/baas/block/${b.channelId}/${b.number - 1}`}
                    disabled={b.number === 0}
                  >
                    {translate('blockchain.action.previousBlock')}
                  </Button>
                  <Button component={RouterLink} to={`/baas/block/${b.channelId}/${b.number + 1}`}>
                    {translate('blockchain.action.nextBlock')}
                  </Button>
                </Stack>
              </CardContent>
            </Card>
            <Card variant="outlined">
              <BlockTransactions txs={b.transactions} />
            </Card>
          </Stack>
        )}
      </Loaded>
    </Box>
  );
}

export function BlockShow() {
  const params = useParams();
  const channelId = Number(params.channelId);
  const number = Number(params.number);
  return (
    <ShowBase resource="blocks" id={`${channelId}:${number}`} queryOptions={stayOnError}>
      <BlockView channelId={channelId} number={number} />
    </ShowBase>
  );
}

/**
 * A transaction's arguments, one a line; the record id of a put-on-chain transaction (`args[0]` of
 * `putAuthor` / `putArtwork`) links to that record's page for a user whose role may see it.
 */
function TxArgs({ fn, args }: { fn: string; args: string[] }) {
  const { permissions } = usePermissions<string[]>();
  const target = recordOfTransaction(fn, args);
  const allowed = target && Array.isArray(permissions) && target.roles.some((r) => permissions.includes(r));
  return (
    <Stack spacing={0.5}>
      {args.map((a, i) => (
        <Typography key={i} variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
          [{i}]{' '}
          {i === 0 && allowed ? (
            <Link
              component={RouterLink}
              to={`/${target.resource}/${target.id}/show`}
              data-testid="tx-record-link"
            >
              {a}
            </Link>
          ) : (
            a
          )}
        </Typography>
      ))}
    </Stack>
  );
}

function TransactionView({ txId }: { txId: string }) {
  const translate = useTranslate();
  const { record: tx, isPending, error } = useShowContext<CommittedTx & { id: string }>();
  const proof = useBaas<TxProof>('/proof', { txId }, !!tx);
  const [check, setCheck] = useState<ProofCheck | null>(null);
  useEffect(() => {
    if (proof.data) checkProofWeb(proof.data).then(setCheck);
  }, [proof.data]);
  const label = (field: string) => `resources.transactions.fields.${field}`;
  return (
    <Box sx={{ p: 2 }}>
      <LedgerAlarms />
      <Title title={translate('blockchain.title.transaction')} />
      <Loaded loading={isPending} error={error}>
        {tx && (
          <Card variant="outlined">
            <CardContent>
              <Fields
                rows={[
                  [label('txId'), <Hash value={tx.txId} full />],
                  [
                    label('channel'),
                    <Link component={RouterLink} to={`/baas/channel/${tx.channelId}`}>
                      {tx.channel}
                    </Link>,
                  ],
                  [
                    label('blockNumber'),
                    <Link component={RouterLink} to={`/baas/block/${tx.channelId}/${tx.blockNumber}`}>
                      {tx.blockNumber}
                    </Link>,
                  ],
                  [label('txIndex'), tx.txIndex],
                  [label('chaincode'), tx.chaincode],
                  [label('function'), tx.function],
                  [label('args'), <TxArgs fn={tx.function} args={tx.args} />],
                  [label('creator'), tx.creator],
                  [label('timestamp'), `${tx.timestamp} UTC`],
                  [
                    label('validationCode'),
                    <Chip
                      size="small"
                      color={tx.validationCode === 0 ? 'success' : 'error'}
                      label={
                        tx.validationCode === 0
                          ? translate('resources.transactions.enums.validationCode.0', { _: 'VALID' })
                          : tx.validationCode
                      }
                    />,
                  ],
                  [label('leafHash'), <Hash value={tx.leafHash} full />],
                ]}
              />
              {check && (
                <Alert severity={check.ok ? 'success' : 'error'} sx={{ mt: 2 }} data-testid="tx-check">
                  {check.ok
                    ? translate('blockchain.verify.txOk', {
                        number: check.blockNumber,
                        channel: check.channel,
                      })
                    : check.message}
                </Alert>
              )}
            </CardContent>
          </Card>
        )}
      </Loaded>
    </Box>
  );
}

export function TransactionShow() {
  const txId = useParams().txId ?? '';
  return (
    <ShowBase resource="transactions" id={txId} queryOptions={stayOnError}>
      <TransactionView txId={txId} />
    </ShowBase>
  );
}
