/**
 * helmet: security headers on every answer, the API's and the console's. Notably
 * `X-Content-Type-Options: nosniff` (an upload is served only as the image type its bytes showed),
 * `frame-ancestors 'none'` (no framing of the console) and a Content-Security-Policy that allows only
 * the console's own scripts (no inline script, no eval: form validators are precompiled) and API; styles
 * may be inline (MUI/emotion injects them at run time) and images may come from https (the Tate records'
 * pictures) and data: URLs (QR codes).
 *
 * Framing: one policy, "never": CSP `frame-ancestors 'none'` for current browsers and `X-Frame-Options:
 * DENY` for those without CSP level 2 (helmet's default SAMEORIGIN would contradict 'none' there).
 * HSTS (`Strict-Transport-Security: max-age=31536000; includeSubDomains`, helmet's default value) only on
 * answers to HTTPS requests, as RFC 6797 section 7.2 requires: the socket is TLS, or, with `TRUST_PROXY`
 * set (server/config.ts), the proxy's X-Forwarded-Proto says https (Fastify's `request.protocol`).
 *
 * The headers do not depend on the request (no CSP nonces), so helmet's middleware runs once at start-up
 * and each answer gets the headers it set ({@link helmetHeaders}); @fastify/helmet ran helmet's whole
 * set-up (parsing the CSP directives) on every request, 6% of a detail call's time.
 */
import fp from 'fastify-plugin';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/** The HSTS value sent on HTTPS answers: one year, subdomains included. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/** helmet's options: the policy described in the module doc. */
const OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      // No 'unsafe-eval': the console validates forms with validators precompiled by codegen
      // (common/generated/formValidators.ts), not with ajv compiling schemas at run time (new Function).
      // Inline and foreign scripts stay refused.
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  // The console loads its Tate images from another origin.
  crossOriginEmbedderPolicy: false,
  crossOriginResourcePolicy: { policy: 'same-origin' },
  xFrameOptions: { action: 'deny' },
  // Sent below, only over HTTPS.
  strictTransportSecurity: false,
};

/** The headers helmet sets with `options` (name → value), from one run of its middleware. */
export function helmetHeaders(options: HelmetOptions = OPTIONS): [string, string][] {
  const headers: [string, string][] = [];
  const res = {
    setHeader: (name: string, value: unknown) => void headers.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, () => undefined);
  return headers;
}

export default fp(async (app) => {
  const headers = helmetHeaders();
  // One synchronous hook: an async onSend hook only for HSTS cost a promise on every answer (issue 10).
  app.addHook('onRequest', (request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    if (request.protocol === 'https') reply.raw.setHeader('strict-transport-security', HSTS);
    done();
  });
});
