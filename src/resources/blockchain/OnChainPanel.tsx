/**
 * `OnChainPanel` for the author and artwork show pages: inside a react-admin record context, fetches the
 * ledger's latest put transaction of the record (GET /baas-api/record: by the ledger, not the record's
 * own `chain` pointer, so a rolled-back record is caught) with its proof and covering checkpoint, and
 * checks it in the browser with Web Crypto (common/ledger/publicVerify.ts, the public page's checks):
 * record digest, Merkle proof, block header, checkpoint signature, no newer version. Shows "verified on
 * chain at block N of channel C" with the transaction's hashed time, "changed since it was put on chain"
 * when only the digest differs, or why not. Links to the public page, (artworks) the certificate, and
 * the download of the record's offline proof (C2SP tlog-proof).
 * Admins can put the record on chain (again) from here.
 *
 * Usage: `<OnChainPanel kind="author" />` / `<OnChainPanel kind="artwork" />` inside `<Show>`.
 */
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, AlertTitle, Box, Button, Card, CardContent, Link, Stack, Typography } from '@mui/material';
import { useNotify, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import type { RecordKind } from '../../../common/ledger/recordFields';
import { verifyPublicRecord, type PublicCheck, type PublicRecord } from '../../../common/ledger/publicVerify';
import { useServerAction } from '../../utils/useServerAction';
import { baasGet, downloadProofFile, putOnChain } from './api';

export function OnChainPanel({ kind }: { kind: RecordKind }) {
  const translate = useTranslate();
  const record = useRecordContext<Record<string, unknown> & { id: number }>();
  const notify = useNotify();
  const { permissions } = usePermissions<string[]>();
  const isAdmin = Array.isArray(permissions) && permissions.includes('admin');
  const txId = typeof record?.chain === 'string' ? record.chain : null;
  const onChain = !!txId || Number(record?.isBlock) === 1;
  const proof = useQuery({
    queryKey: ['baas-api', '/record', { kind, id: record?.id, txId, v: record?.chainVersion }],
    queryFn: () => baasGet<PublicRecord>('/record', { kind, id: record!.id }),
    enabled: onChain && !!record,
    retry: false,
  });
  const [check, setCheck] = useState<PublicCheck | null>(null);
  const { busy, run } = useServerAction();

  useEffect(() => {
    let live = true;
    setCheck(null);
    if (proof.data) verifyPublicRecord(proof.data).then((c) => live && setCheck(c));
    return () => {
      live = false;
    };
  }, [proof.data]);

  if (!record) return null;
  // The refreshed record carries the (new) transaction id: the proof query follows its key. A manual
  // refetch here would run even without a txId (refetch ignores `enabled`): GET /proof without txId, a 400.
  const put = () =>
    run(async () => {
      const r = await putOnChain(kind, record.id);
      // notify translates: pass the key (a translated text would be looked up as a key and warn).
      notify(r.repeated ? 'blockchain.onChain.repeated' : 'blockchain.onChain.done', {
        type: 'success',
        messageArgs: { number: r.blockNumber },
      });
    });
  const button = (label: string) =>
    isAdmin && (
      <Button variant="contained" size="small" onClick={put} disabled={busy} sx={{ mt: 1 }}>
        {translate(label)}
      </Button>
    );

  let body;
  const links = record && (
    <Stack direction="row" spacing={2} sx={{ mt: 1 }}>
      <Link
        href={`#/verify/${kind}/${record.id}`}
        target="_blank"
        rel="noopener"
        data-testid="onchain-public-link"
      >
        {translate('blockchain.onChain.publicPage')}
      </Link>
      {kind === 'artwork' && (
        <Link
          href={`#/certificate/${record.id}`}
          target="_blank"
          rel="noopener"
          data-testid="onchain-certificate-link"
        >
          {translate('blockchain.onChain.certificate')}
        </Link>
      )}
      {onChain && (
        <Link
          component="button"
          type="button"
          onClick={() =>
            downloadProofFile(kind, record.id).catch((err: Error) =>
              notify(err.message, { type: 'error', messageArgs: { _: err.message } }),
            )
          }
          data-testid="onchain-proof-file"
        >
          {translate('blockchain.onChain.proofFile')}
        </Link>
      )}
    </Stack>
  );
  const failed = check ? check.steps.filter((s) => !s.ok) : [];
  if (!onChain) {
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
    const p = proof.data.proof;
    body = (
      <Alert severity="success" data-testid="onchain-status">
        <AlertTitle>
          {translate('blockchain.onChain.verified', { number: check.blockNumber, channel: p.channel })}
        </AlertTitle>
        <Typography variant="body2">
          {translate('blockchain.onChain.verifiedDetail', {
            version: p.tx.args[1],
            txId: `${p.tx.txId.slice(0, 12)}…`,
            time: p.tx.timestamp,
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
        {links}
      </Alert>
    );
  } else if (!check.halted && failed.length === 1 && failed[0].step === 'digest') {
    body = (
      <Alert severity="warning" data-testid="onchain-status">
        <AlertTitle>{translate('blockchain.onChain.changed')}</AlertTitle>
        <Typography variant="body2">
          {translate('blockchain.onChain.changedDetail', {
            version: proof.data.proof.tx.args[1],
            number: proof.data.proof.header.number,
          })}
        </Typography>
        {button('blockchain.action.putAgain')}
      </Alert>
    );
  } else {
    body = (
      <Alert severity="error" data-testid="onchain-status">
        {translate('blockchain.onChain.failed', {
          // A halted channel (the signer's alarm) first, with its reason (issue 31).
          message: [
            ...(check.halted ? [check.halted.reason] : []),
            ...failed.map((s) => s.message ?? s.step),
          ].join('; '),
        })}
        {failed.some((s) => s.step === 'latest') && (
          <Typography variant="body2">
            {translate('blockchain.onChain.olderVersion', {
              latest: proof.data.latest.version,
              found: proof.data.recordChain.version,
            })}
          </Typography>
        )}
        {failed.some((s) => s.step === 'digest') && button('blockchain.action.putAgain')}
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
