/**
 * The session's live updates (issue 32, "Live"): one stream of record events per signed-in console tab
 * (./liveStream.ts), opened while the shell is mounted (src/layout/ShellLayout.tsx) and closed with it
 * (logout), each event handed to ./liveUpdates.ts, which reloads what it changed. Renders nothing.
 */
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getToken } from '../dataProvider/httpClient';
import { CLIENT_ID, CLIENT_ID_HEADER } from './clientId';
import { openLiveConnection } from './liveStream';
import { applyEvent, forgetChanges, resyncAll, setConnectedSince } from './liveUpdates';

export function LiveUpdates() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const connection = openLiveConnection(
      {
        onEvent: (event) => applyEvent(queryClient, event, CLIENT_ID),
        onReady: (again) => {
          if (again) resyncAll(queryClient);
        },
        onResync: () => resyncAll(queryClient),
      },
      { token: getToken, headers: { [CLIENT_ID_HEADER]: CLIENT_ID } },
    );
    setConnectedSince(() => connection.connectedSince);
    return () => {
      connection.stop();
      setConnectedSince(() => undefined);
      forgetChanges();
    };
  }, [queryClient]);
  return null;
}
