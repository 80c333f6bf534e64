/**
 * @fastify/helmet: security headers on every answer, the API's and the console's. Notably
 * `X-Content-Type-Options: nosniff` (an upload is served only as the image type its bytes showed),
 * `frame-ancestors 'none'` (no framing of the console) and a Content-Security-Policy that allows only
 * the console's own scripts (no inline script, no eval: form validators are precompiled) and API; styles
 * may be inline (MUI/emotion injects them at run time) and images may come from https (the Tate records'
 * pictures) and data: URLs (QR codes).
 */
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';

export default fp(async (app) => {
  await app.register(helmet, {
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
  });
});
