/**
 * The OpenAPI plugin (server/plugins/external/swagger.ts) describes routes however they are written: a
 * route registered at the root, in the shape a plugin generated from `x-endpoints` would register it,
 * gets the resource's section, the verb as summary, the roles of its guard and its `$ref`'d schema in
 * `components.schemas`; a route of no resource gets its URL folder; a route that declares its own
 * `tags` / `summary` keeps them.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { REQUIRED_ROLES } from '../../server/plugins/app/auth';
import validation from '../../kernel/server/validation';
import swaggerPlugin, { describeRoute } from '../../server/plugins/external/swagger';

const guard = (roles: string[]) => Object.assign(async () => {}, { [REQUIRED_ROLES]: roles });

let app: FastifyInstance | undefined;
afterEach(() => app?.close());

/** A bare app with the validation and OpenAPI plugins and a stand-in `requireRoles` (no database). */
async function bareApp(register: (app: FastifyInstance) => void) {
  app = Fastify();
  app.decorate('requireRoles', (roles: string[] = []) => guard(roles));
  await app.register(validation);
  await app.register(swaggerPlugin);
  register(app);
  await app.ready();
  return app.swagger() as any;
}

describe('OpenAPI document of routes however registered', () => {
  it('a root-level route named by x-endpoints gets its resource, verb, roles and schema', async () => {
    const doc = await bareApp((a) => {
      a.route({
        method: 'POST',
        url: '/artmanager/artwork/addArtwork',
        onRequest: [a.requireRoles(['admin'])],
        schema: { body: { $ref: 'artwork.create' } },
        handler: async () => ({}),
      });
      a.get('/artmanager/authors/getArtworkList', { onRequest: a.requireRoles(['admin']) }, async () => ({}));
    });
    const op = doc.paths['/artmanager/artwork/addArtwork'].post;
    expect(op.tags).toEqual(['artworks']);
    expect(op.summary).toBe('artworks create');
    expect(op.security).toEqual([{ xToken: ['admin'] }]);
    expect(op.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/artwork.create',
    });
    expect(doc.components.schemas['artwork.create'].properties.artWorkName).toBeDefined();
    expect(doc.components.schemas['artwork.create'].$schema).toBeUndefined();
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '401', '403']);
    expect(doc.paths['/artmanager/authors/getArtworkList'].get.summary).toBe(
      'artworks getManyReference(author)',
    );
    expect(doc.tags.map((t: { name: string }) => t.name)).toContain('artworks');
  });

  it('a route of no resource: URL folder as section, its path in words; declared tags and summary are kept', async () => {
    const doc = await bareApp((a) => {
      a.register(
        async (child) => {
          child.get('/blockHeaders', { onRequest: a.requireRoles(['user']) }, async () => ({}));
          child.post('/ping', async () => ({}));
          child.get('/mine', { schema: { tags: ['custom'], summary: 'Declared' } }, async () => ({}));
        },
        { prefix: '/baas-api/extra' },
      );
    });
    const blockHeaders = doc.paths['/baas-api/extra/blockHeaders'].get;
    expect(blockHeaders.tags).toEqual(['/baas-api/extra']);
    expect(blockHeaders.summary).toBe('Block headers');
    expect(blockHeaders.security).toEqual([{ xToken: ['admin', 'user'] }]);
    const ping = doc.paths['/baas-api/extra/ping'].post;
    expect(ping.security).toEqual([]);
    expect(Object.keys(ping.responses)).toEqual(['200']);
    expect(doc.paths['/baas-api/extra/mine'].get).toMatchObject({ tags: ['custom'], summary: 'Declared' });
  });

  it('describeRoute reads only the route options', () => {
    // The folder /dev-api/user is the accounts resource's (its x-endpoints), so the login calls share its tag.
    expect(describeRoute({ method: 'GET', url: '/dev-api/user/info', onRequest: guard([]) as any })).toEqual({
      tags: ['accounts'],
      summary: 'Info',
      security: [{ xToken: [] }, { tokenQuery: [] }],
    });
    expect(describeRoute({ method: 'GET', url: '/medicine-api/company/getList' })).toMatchObject({
      tags: ['companies'],
      summary: 'companies getList / getMany',
      security: [],
    });
  });
});
