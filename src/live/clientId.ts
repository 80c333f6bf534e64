/**
 * This console tab's id (issue 32, live updates): random, made once per page load, sent with every call
 * as `X-Client-Id` (src/dataProvider/httpClient.ts) and echoed by the server in the record events its
 * writes cause (server/db/recordEvents.ts), so that the tab tells its own saves from others'.
 */

/** 16 random bytes as 32 hex digits (the server admits 1 to 64 of `[A-Za-z0-9_-]`). */
function newClientId(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The id of this tab. */
export const CLIENT_ID = newClientId();

/** The header carrying it. */
export const CLIENT_ID_HEADER = 'X-Client-Id';
