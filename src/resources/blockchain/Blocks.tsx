/**
 * `BlockShow` (/baas/block/:channelId/:number): the block header and its transactions, with the Merkle
 * root and the block hash recomputed in the browser (Web Crypto). `TransactionShow`
 * (/baas/transaction/:txId): every field of a transaction and its Merkle proof checked in the browser.
 */
import { useEffect, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Link,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { Title, useTranslate } from 'react-admin';
import { checkBlockWeb, checkProofWeb, type ProofCheck } from '../../../common/ledger/webVerify';
import type { BlockInfo, CommittedTx, TxProof } from './api';
import { Fields, Hash, Loaded, useBaas } from './common';

type BlockDetail = BlockInfo & { transactions: CommittedTx[] };

export function BlockShow() {
  const translate = useTranslate();
  const params = useParams();
  const channelId = Number(params.channelId);
  const number = Number(params.number);
  const q = useBaas<BlockDetail>('/block', { channelId, number });
  const [check, setCheck] = useState<{ ok: boolean; what?: string } | null>(null);
  useEffect(() => {
    setCheck(null);
    if (q.data)
      checkBlockWeb(q.data, q.data.transactions).then(setCheck, () =>
        setCheck({ ok: false, what: 'dataHash' }),
      );
  }, [q.data]);
  const b = q.data;
  return (
    <Box sx={{ p: 2 }}>
      <Title title={translate('blockchain.title.block', { number, channel: b?.channel ?? channelId })} />
      <Loaded loading={q.isPending} error={q.error}>
        {b && (
          <Stack spacing={2}>
            <Card variant="outlined">
              <CardContent>
                <Fields
                  rows={[
                    [
                      'blockchain.field.channel',
                      <Link component={RouterLink} to={`/baas/channel/${b.channelId}`}>
                        {b.channel}
                      </Link>,
                    ],
                    ['blockchain.field.number', <b>{b.number}</b>],
                    ['blockchain.field.blockHash', <Hash value={b.blockHash} full />],
                    ['blockchain.field.dataHash', <Hash value={b.dataHash} full />],
                    ['blockchain.field.previousHash', <Hash value={b.previousHash} full />],
                    ['blockchain.field.txCount', b.txCount],
                    ['blockchain.field.time', `${b.createdAt} UTC`],
                  ]}
                />
                {check && (
                  <Alert severity={check.ok ? 'success' : 'error'} sx={{ mt: 2 }} data-testid="block-check">
                    {check.ok
                      ? translate('blockchain.verify.blockOk', { count: b.txCount })
                      : translate('blockchain.verify.blockBad', {
                          what: translate(`blockchain.field.${check.what}`),
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
            <Card variant="outlined" sx={{ overflowX: 'auto' }}>
              <Table size="small" data-testid="block-transactions">
                <TableHead>
                  <TableRow>
                    <TableCell>#</TableCell>
                    <TableCell>{translate('blockchain.field.txId')}</TableCell>
                    <TableCell>{translate('blockchain.field.chaincode')}</TableCell>
                    <TableCell>{translate('blockchain.field.function')}</TableCell>
                    <TableCell>{translate('blockchain.field.args')}</TableCell>
                    <TableCell>{translate('blockchain.field.creator')}</TableCell>
                    <TableCell>{translate('blockchain.field.timestamp')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {b.transactions.map((tx) => (
                    <TableRow key={tx.txId} hover>
                      <TableCell>{tx.txIndex}</TableCell>
                      <TableCell>
                        <Link
                          component={RouterLink}
                          to={`/baas/transaction/${tx.txId}`}
                          sx={{ fontFamily: 'monospace' }}
                        >
                          {tx.txId.slice(0, 12)}…
                        </Link>
                      </TableCell>
                      <TableCell>{tx.chaincode}</TableCell>
                      <TableCell>{tx.function}</TableCell>
                      <TableCell
                        sx={{
                          maxWidth: 320,
                          overflow: 'hidden',
                          textOverflow: 'ellipsis',
                          whiteSpace: 'nowrap',
                          fontFamily: 'monospace',
                        }}
                      >
                        {tx.args.join(', ')}
                      </TableCell>
                      <TableCell>{tx.creator}</TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{tx.timestamp}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Card>
          </Stack>
        )}
      </Loaded>
    </Box>
  );
}

export function TransactionShow() {
  const translate = useTranslate();
  const txId = useParams().txId ?? '';
  const q = useBaas<CommittedTx>('/transaction', { txId });
  const proof = useBaas<TxProof>('/proof', { txId }, !!q.data);
  const [check, setCheck] = useState<ProofCheck | null>(null);
  useEffect(() => {
    if (proof.data) checkProofWeb(proof.data).then(setCheck);
  }, [proof.data]);
  const tx = q.data;
  return (
    <Box sx={{ p: 2 }}>
      <Title title={translate('blockchain.title.transaction')} />
      <Loaded loading={q.isPending} error={q.error}>
        {tx && (
          <Card variant="outlined">
            <CardContent>
              <Fields
                rows={[
                  ['blockchain.field.txId', <Hash value={tx.txId} full />],
                  [
                    'blockchain.field.channel',
                    <Link component={RouterLink} to={`/baas/channel/${tx.channelId}`}>
                      {tx.channel}
                    </Link>,
                  ],
                  [
                    'blockchain.field.blockNumber',
                    <Link component={RouterLink} to={`/baas/block/${tx.channelId}/${tx.blockNumber}`}>
                      {tx.blockNumber}
                    </Link>,
                  ],
                  ['blockchain.field.txIndex', tx.txIndex],
                  ['blockchain.field.chaincode', tx.chaincode],
                  ['blockchain.field.function', tx.function],
                  [
                    'blockchain.field.args',
                    <Stack spacing={0.5}>
                      {tx.args.map((a, i) => (
                        <Typography
                          key={i}
                          variant="body2"
                          sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}
                        >
                          [{i}] {a}
                        </Typography>
                      ))}
                    </Stack>,
                  ],
                  ['blockchain.field.creator', tx.creator],
                  ['blockchain.field.timestamp', `${tx.timestamp} UTC`],
                  [
                    'blockchain.field.validationCode',
                    <Chip
                      size="small"
                      color={tx.validationCode === 0 ? 'success' : 'error'}
                      label={tx.validationCode === 0 ? 'VALID' : tx.validationCode}
                    />,
                  ],
                  ['blockchain.field.leafHash', <Hash value={tx.leafHash} full />],
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
