import { Writable } from 'node:stream';
import Fastify, { LogController } from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyChildLogger } from './requestLogger';

/** A Fastify app logging at `level` into `lines` (one parsed JSON object per line), with the lazy factory. */
function appWithLog(level: string, lines: Record<string, unknown>[]) {
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l));
      done();
    },
  });
  const logger = pino({ level }, stream);
  const app = Fastify({
    loggerInstance: logger,
    childLoggerFactory: lazyChildLogger,
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.get('/quiet', async () => ({ ok: true }));
  app.get('/info', async (req) => {
    req.log.info('an info line');
    return { ok: true };
  });
  app.get('/warn', async (req) => {
    req.log.warn({ detail: 7 }, 'a warning');
    return { ok: true };
  });
  app.get('/child', { logLevel: 'debug' }, async (req) => {
    req.log.debug('a debug line of a route at debug');
    return { ok: true };
  });
  return { app, logger };
}

describe('request loggers made on first use', () => {
  afterEach(() => vi.restoreAllMocks());

  it('writes a request line with its request id, as a pino child would', async () => {
    const lines: Record<string, unknown>[] = [];
    const { app } = appWithLog('warn', lines);
    const res = await app.inject({ url: '/warn' });
    expect(res.statusCode).toBe(200);
    const line = lines.find((l) => l.msg === 'a warning');
    expect(line).toMatchObject({ level: 40, detail: 7, reqId: expect.any(String) });
    await app.close();
  });

  it('writes nothing and makes no pino child for a call below the level', async () => {
    const lines: Record<string, unknown>[] = [];
    const { app, logger } = appWithLog('warn', lines);
    await app.ready();
    const child = vi.spyOn(logger, 'child');
    await app.inject({ url: '/quiet' });
    await app.inject({ url: '/info' });
    expect(lines.filter((l) => l.msg === 'an info line')).toEqual([]);
    expect(child).not.toHaveBeenCalled();
    await app.inject({ url: '/warn' });
    expect(child).toHaveBeenCalledTimes(1);
    await app.close();
  });

  it("keeps a route's own log level", async () => {
    const lines: Record<string, unknown>[] = [];
    const { app } = appWithLog('info', lines);
    await app.inject({ url: '/child' });
    await app.inject({ url: '/info' });
    expect(lines.map((l) => l.msg)).toEqual(['a debug line of a route at debug', 'an info line']);
    await app.close();
  });
});
