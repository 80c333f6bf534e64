/**
 * One JSON call to a running server over HTTP, as the console makes it: `x-token` header when signed in,
 * a JSON body when given. Returns the HTTP status and the parsed envelope `{code, msg, data}`; throws
 * when the server does not answer (e.g. killed) or the answer is not JSON.
 */
export async function httpApi(
  base: string,
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: { code: number; msg: string; data: any } }> {
  const r = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { 'x-token': token } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, body: (await r.json()) as { code: number; msg: string; data: any } };
}
