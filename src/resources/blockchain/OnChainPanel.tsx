/**
 * `OnChainPanel` for the author and artwork show pages: inside a react-admin record context, fetches the
 * proof of the record's last put-on-chain transaction (GET /baas-api/proof?txId=record.chain) and checks
 * it in the browser with Web Crypto (common/ledger/webVerify.ts): the record's digest equals the one on
 * chain, the Merkle path leads to the block's data hash, and the DER header hashes to the block hash.
 * Shows "verified on chain at block N of channel C", or "changed since it was put on chain" on a digest
 * mismatch, or why not. Admins can put the record on chain (again) from here.
 *
 * Usage: `<OnChainPanel kind="author" />` / `<OnChainPanel kind="artwork" />` inside `<Show>`.
 */
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { Alert, AlertTitle, Box, Button, Card, CardContent, Link, Stack, Typography } from '@mui/material';
import { useNotify, usePermissions, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import type { RecordKind } from '../../../common/ledger/recordFields';
import { checkProofWeb, recordDigestWeb, type ProofCheck } from '../../../common/ledger/webVerify';
import { baasGet, putOnChain, type TxProof } from './api';

export function OnChainPanel({ kind }: { kind: RecordKind }) {
  const translate = useTranslate();
  const record = useRecordContext<Record<string, unknown> & { id: number }>();
  const notify = useNotify();
  const refresh = useRefresh();
  const { permissions } = usePermissions<string[]>();
  const isAdmin = Array.isArray(permissions) && permissions.includes('admin');
  const txId = typeof record?.chain === 'string' ? record.chain : null;
  const proof = useQuery({
    queryKey: ['baas-api', '/proof', { txId }],
    queryFn: () => baasGet<TxProof>('/proof', { txId }),
    enabled: !!txId,
    retry: false,
  });
  const [check, setCheck] = useState<ProofCheck | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    setCheck(null);
    if (proof.data && record)
      recordDigestWeb(kind, record)
        .then((digest) => checkProofWeb(proof.data, digest))
        .then((c) => live && setCheck(c));
    return () => {
      live = false;
    };
  }, [proof.data, record, kind]);

  if (!record) return null;
  const put = async () => {
    setBusy(true);
    try {
      const r = await putOnChain(kind, record.id);
      // notify translates: pass the key (a translated text would be looked up as a key and warn).
      notify(r.repeated ? 'blockchain.onChain.repeated' : 'blockchain.onChain.done', {
        type: 'success',
        messageArgs: { number: r.blockNumber },
      });
      // The refreshed record carries the (new) transaction id: the proof query follows its key. A manual
      // refetch here would run even without a txId (refetch ignores `enabled`): GET /proof without txId, a 400.
      refresh();
    } catch (err) {
      // The message is the server's, already in the console's language (dataProvider/httpClient.ts).
      const message = (err as Error).message;
      notify(message, { type: 'error', messageArgs: { _: message } });
    } finally {
      setBusy(false);
    }
  };
  const button = (label: string) =>
    isAdmin && (
      <Button variant="contained" size="small" onClick={put} disabled={busy} sx={{ mt: 1 }}>
        {translate(label)}
      </Button>
    );

  let body;
  if (!txId) {
    body = (
      <Alert severity="info" data-testid="onchain-status">
        {translate(record.status === 1 ? 'blockchain.onChain.rolling' : 'blockchain.onChain.notOnChain')}
        {kind === 'artwork' && (
          <Typography variant="body2">{translate('blockchain.onChain.authorFirst')}</Typography>
        )}
        <Box>{button('blockchain.action.putOnChain')}</Box>
      </Alert>
    );
  } else if (proof.error) {
    body = (
      <Alert severity="error" data-testid="onchain-status">
        {translate('blockchain.onChain.failed', { message: (proof.error as Error).message })}
      </Alert>
    );
  } else if (!check || !proof.data) {
    body = <Alert severity="info">{translate('blockchain.onChain.checking')}</Alert>;
  } else if (check.ok) {
    const p = proof.data;
    body = (
      <Alert severity="success" data-testid="onchain-status">
        <AlertTitle>
          {translate('blockchain.onChain.verified', { number: check.blockNumber, channel: check.channel })}
        </AlertTitle>
        <Typography variant="body2">
          {translate('blockchain.onChain.verifiedDetail', {
            version: p.tx.args[1],
            txId: `${p.tx.txId.slice(0, 12)}…`,
            time: p.blockTime,
          })}
        </Typography>
        <Stack direction="row" spacing={2} sx={{ mt: 1 }}>
          <Link
            component={RouterLink}
            to={`/baas/block/${p.channelId}/${p.header.number}`}
            data-testid="onchain-block-link"
          >
            {translate('blockchain.onChain.openBlock')}
          </Link>
          <Link component={RouterLink} to={`/baas/transaction/${p.tx.txId}`}>
            {translate('blockchain.field.txId')}
          </Link>
        </Stack>
      </Alert>
    );
  } else if (check.reason === 'digest') {
    body = (
      <Alert severity="warning" data-testid="onchain-status">
        <AlertTitle>{translate('blockchain.onChain.changed')}</AlertTitle>
        <Typography variant="body2">
          {translate('blockchain.onChain.changedDetail', {
            version: proof.data.tx.args[1],
            number: proof.data.header.number,
          })}
        </Typography>
        {button('blockchain.action.putAgain')}
      </Alert>
    );
  } else {
    body = (
      <Alert severity="error" data-testid="onchain-status">
        {translate('blockchain.onChain.failed', { message: check.message })}
      </Alert>
    );
  }
  return (
    <Card variant="outlined" sx={{ mt: 8, ml: 2, width: 380, flexShrink: 0, alignSelf: 'flex-start' }}>
      <CardContent>
        <Typography variant="subtitle1" gutterBottom>
          {translate('blockchain.onChain.title')}
        </Typography>
        {body}
      </CardContent>
    </Card>
  );
}
