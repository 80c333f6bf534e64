/**
 * Records the browser tests need, made the way an operator's data gets them: through the product's own
 * calls on the running server (HTTP, as the console and the mini-program send them), never by writing
 * the database.
 * - `addPlatformUser`: a bid user added by the admin (`POST /artmanager/subjects/insertUser`), then its
 *   first sign-in in the mini-program (`POST /app-api/user/login`, the initial password being the phone
 *   number), which registers it as a platform user (server/routes/app-api/user/index.ts).
 * - `installChaincode`: Fabric's lifecycle as the product splits it (docs/api.md "Chaincode and the user
 *   role"): `user` installs a Go package (`POST /baas-api/chaincode/upload`, multipart), `admin` approves
 *   the definition and commits it to the channel (`/baas-api/chaincode/approve`, `/commit`).
 * - `addContract`: a smart contract from the shipped "Drug supply agreement" template
 *   (`POST /data-api/contract/add`); `archive`: a record taken to the pigeonhole
 *   (`POST /data-api/pigeonhole/archive`).
 * - `uploadFile`: a file for a schema property's `x-upload` (`POST /artmanager/upload?resource=&field=`,
 *   as the console's upload input sends it); `MP4`: the smallest file the server takes as a video.
 * Each throws with the server's answer when a call does not succeed (HTTP 200).
 */
import type { TestEnv } from './env';
import { httpApi } from '../../support/httpApi';

type Answer = { status: number; body: { code: number; msg: string; data: any } };

/** The answer's `data`; throws naming the call and the server's answer when it is not HTTP 200. */
function dataOf<T>(call: string, r: Answer): T {
  if (r.status !== 200) throw new Error(`${call} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body.data as T;
}

/**
 * A platform user, as the mini-program makes one (see the module doc): resolves the bid user's and the
 * platform user's ids.
 * @param phone the bid user's mobile number (its account and initial password)
 */
export async function addPlatformUser(
  env: TestEnv,
  phone: string,
  nickname: string,
): Promise<{ bidUserId: number; platformUserId: number }> {
  const bid = dataOf<{ id: number }>(
    'insertUser',
    await env.adminApi('/artmanager/subjects/insertUser', { phone, nickname }),
  );
  const login = dataOf<{ user: { id: number } }>(
    'app-api login',
    await httpApi(env.baseUrl, null, 'POST', '/app-api/user/login', { account: phone, password: phone }),
  );
  return { bidUserId: bid.id, platformUserId: login.user.id };
}

/** A small Go chaincode package's source (what `checkGoSource` accepts: UTF-8 with a package clause). */
const ASSET_GO = `// Package main: an asset-transfer chaincode.
package main

import "fmt"

func main() { fmt.Println("asset transfer") }
`;

/**
 * A chaincode installed by `user`, approved and committed by `admin` (see the module doc): resolves its
 * id. `name` follows the schema's pattern (a letter, then letters, digits, `_` or `-`).
 */
export async function installChaincode(env: TestEnv, name: string): Promise<number> {
  const form = new FormData();
  // Its definition: what it runs (`transfer(owner, to)`, invoked) and who endorses it.
  const definition = { name, version: '2.1', function: 'transfer', functionType: 'invoke' };
  for (const [k, v] of Object.entries(definition)) form.append(k, v);
  form.append('args', 'owner, to');
  form.append('policy', "AND('Org1MSP.peer')");
  form.append('file', new Blob([ASSET_GO], { type: 'text/x-go' }), `${name}.go`);
  const { id } = await postForm<{ id: number }>(
    env,
    '/baas-api/chaincode/upload',
    await env.tokenOf('user'),
    form,
  );
  for (const step of ['approve', 'commit'])
    dataOf(`chaincode/${step}`, await env.adminApi(`/baas-api/chaincode/${step}`, { id }));
  return id;
}

/** Sends `form` (multipart/form-data) to `path` with `token`: resolves the answer's `data`. */
async function postForm<T>(env: TestEnv, path: string, token: string, form: FormData): Promise<T> {
  const res = await fetch(`${env.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'x-token': token },
    body: form,
  });
  return dataOf<T>(path, { status: res.status, body: (await res.json()) as Answer['body'] });
}

/**
 * An MP4 the server's content check takes as a video (common/fileTypes.ts: `ftyp` at byte 4): one
 * `ftyp` box (ISO/IEC 14496-12 section 4.3), brand isom, compatible isom and iso2.
 */
export const MP4 = new Uint8Array([
  0,
  0,
  0,
  0x18,
  ...[...'ftypisom'].map((c) => c.charCodeAt(0)),
  0,
  0,
  2,
  0,
  ...[...'isomiso2'].map((c) => c.charCodeAt(0)),
]);

/** Uploads `bytes` as file `name` for property `field` of `resource`, as admin: resolves its URL. */
export async function uploadFile(
  env: TestEnv,
  target: { resource: string; field: string },
  name: string,
  bytes: Uint8Array,
  type: string,
): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([bytes as BlobPart], { type }), name);
  const query = `resource=${encodeURIComponent(target.resource)}&field=${encodeURIComponent(target.field)}`;
  return (await postForm<{ url: string }>(env, `/artmanager/upload?${query}`, await env.adminToken(), form))
    .url;
}

/** A smart contract named `name` on the shipped "Drug supply agreement" template: resolves its id. */
export async function addContract(env: TestEnv, name: string): Promise<number> {
  const templates = dataOf<{ list: { id: number; name: string }[] }>(
    'templateList',
    await env.adminApi('/medicine-api/smContract/templateList?pageSize=100'),
  ).list;
  const template = templates.find((t) => t.name === 'Drug supply agreement');
  if (!template) throw new Error('the shipped "Drug supply agreement" template is missing');
  const params = { supplier: '华北制药', drugName: '阿莫西林胶囊', quantity: 1200, unitPrice: 12.5 };
  return dataOf<{ id: number }>(
    'contract/add',
    await env.adminApi('/data-api/contract/add', { name, templateId: template.id, params }),
  ).id;
}

/** Takes record `id` of `resource` (contracts, artworks) to the pigeonhole: resolves the archived record's id. */
export async function archive(env: TestEnv, resource: 'contracts' | 'artworks', id: number): Promise<number> {
  return dataOf<{ id: number }>(
    'pigeonhole/archive',
    await env.adminApi('/data-api/pigeonhole/archive', { resource, id }),
  ).id;
}
