/**
 * What the public (no sign-in) `/baas-api` routes share: their rate limit (`PUBLIC_RATE_LIMIT` requests
 * a minute per client, server/config.ts `publicRateLimit`) and the channel lookup that answers 404.
 */
import type { FastifyInstance } from 'fastify';
import type { ChannelInfo } from '../../../common/ledger/types';
import { notFound } from '../../errors';

/** The route `config` of a public call: `@fastify/rate-limit` at the configured rate per minute. */
export const publicRouteConfig = (app: FastifyInstance) => ({
  rateLimit: { max: app.config.publicRateLimit, timeWindow: '1 minute' },
});

/** The channel named `name`. @throws ApiError 404 naming the channel when there is none. */
export async function channelOr404(app: FastifyInstance, name: string): Promise<ChannelInfo> {
  const ch = await app.ledger.channel(name);
  if (!ch) throw notFound('Channel', name);
  return ch;
}
