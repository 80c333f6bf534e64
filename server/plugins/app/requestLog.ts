/**
 * Request ids and the request log (issue 20):
 * - each request's id (`request.id`, Fastify's `genReqId`, see {@link requestIdGenerator}) is the
 *   `X-Request-Id` its client sent when that client is a trusted proxy (TRUST_PROXY, server/config.ts)
 *   and the value is well formed ({@link REQUEST_ID_RE}); otherwise a new random UUID (RFC 9562 v4).
 *   Every answer carries it back in `X-Request-Id`, errors included;
 * - one info line per request when it is answered (REQUEST_LOG, default on): `msg: "request"` with
 *   `reqId`, `method`, `route` (the route pattern, `(unmatched)` for a 404), `url`, `status`, `ms`
 *   (Fastify's `reply.elapsedTime`, milliseconds, 0.1 ms precision) and `account` (the signed-in
 *   console account's username, absent when none).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../../config';

/** An incoming `X-Request-Id` we accept: 1 to 128 characters of letters, digits and `._:-`. */
export const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Whether a direct peer address is a trusted proxy under `TRUST_PROXY`: `true` trusts any, a hop count
 * trusts the direct peer (the first hop), an address/CIDR list trusts the addresses it names
 * (`loopback`, `linklocal`, `uniquelocal` as Fastify's proxy-addr reads them); false trusts none.
 */
export function trustedPeer(trust: AppConfig['trustProxy']): (address: string | undefined) => boolean {
  if (trust === true) return () => true;
  if (trust === false) return () => false;
  if (typeof trust === 'number') return () => trust > 0;
  const list = new BlockList();
  const named: Record<string, string[]> = {
    loopback: ['127.0.0.1/8', '::1/128'],
    linklocal: ['169.254.0.0/16', 'fe80::/10'],
    uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
  };
  for (const item of trust.split(',').flatMap((t) => named[t.trim()] ?? [t.trim()])) {
    const [address, bits] = item.split('/');
    const type = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (!isIPv4(address) && !isIPv6(address)) continue;
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return (address) => {
    if (!address) return false;
    const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
    return isIPv4(v4) ? list.check(v4, 'ipv4') : isIPv6(address) && list.check(address, 'ipv6');
  };
}

/** Fastify's `genReqId` for `config`: the trusted proxy's `X-Request-Id`, else a new UUID. */
export function requestIdGenerator(config: AppConfig): (req: IncomingMessage) => string {
  const trusted = trustedPeer(config.trustProxy);
  return (req) => {
    const given = req.headers['x-request-id'];
    if (typeof given === 'string' && REQUEST_ID_RE.test(given) && trusted(req.socket.remoteAddress))
      return given;
    return randomUUID();
  };
}

export default fp(
  async function requestLog(app: FastifyInstance) {
    app.addHook('onRequest', async (request, reply) => {
      reply.header('x-request-id', request.id);
    });
    if (!app.config.requestLog) return;
    app.addHook('onResponse', async (request, reply) => {
      app.log.info(
        {
          reqId: request.id,
          method: request.method,
          route: request.routeOptions.url ?? '(unmatched)',
          url: request.url,
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 10) / 10,
          account: request.account?.account,
        },
        'request',
      );
    });
  },
  { name: 'requestLog' },
);
