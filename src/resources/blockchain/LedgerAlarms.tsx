/**
 * The ledger's alarms on every blockchain page (issue 31): a channel halted because its stored log does
 * not extend the last checkpoint it signed or a witness cosigned (a rollback: a restored copy behind it;
 * a fork: a rewritten history). One red banner per channel, naming the kind, both sizes, the witness
 * when one remembered, and the server's reason; read from `GET /baas-api/chains` (role user), whose
 * `alarms` are server/ledger/checkpoints.ts `LedgerAlarm`s. Nothing shows while no channel is halted.
 */
import { Alert, AlertTitle, Box, Stack } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { LedgerAlarm } from '../../../common/ledger/types';
import { useBaas } from './common';

/** A ledger alarm as `GET /baas-api/chains` answers it (common/ledger/types.ts). */
export type LedgerAlarmRow = LedgerAlarm;

/** The banners (see the module comment). */
export function LedgerAlarms() {
  const translate = useTranslate();
  const chains = useBaas<{ list: { alarms?: LedgerAlarmRow[] }[] }>('/chains');
  const alarms = chains.data?.list.flatMap((c) => c.alarms ?? []) ?? [];
  if (!alarms.length) return null;
  return (
    <Stack spacing={1} sx={{ mb: 2 }} data-testid="ledger-alarms">
      {alarms.map((a) => (
        <Alert key={a.channel} severity="error" data-testid={`ledger-alarm-${a.channel}`}>
          <AlertTitle>{translate('blockchain.alarm.title', { channel: a.channel })}</AlertTitle>
          {translate(`blockchain.alarm.${a.kind}`, { signed: a.signed.size, head: a.head.size })}
          {a.witness ? ` ${translate('blockchain.alarm.witness', { witness: a.witness })}` : ''}
          <Box component="span" sx={{ display: 'block', mt: 0.5 }}>
            {translate('blockchain.alarm.way')}
          </Box>
          <Box component="span" sx={{ display: 'block', mt: 0.5, fontSize: 12, wordBreak: 'break-word' }}>
            {a.since} · {a.origin} · {a.reason}
          </Box>
        </Alert>
      ))}
    </Stack>
  );
}
