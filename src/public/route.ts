/**
 * The public pages' routes (no login): `#/verify/:kind/:id` (a record's verification page) and
 * `#/certificate/:id` (an artwork's printable certificate). Kept apart from the pages themselves so the
 * browser entry (src/main.tsx) can tell a public hash without loading them.
 */

/** The public route a hash names, or undefined for the console's own routes. */
export type PublicRoute =
  { page: 'verify'; kind: 'author' | 'artwork'; id: number } | { page: 'certificate'; id: number };

/** Parses `#/verify/:kind/:id` and `#/certificate/:id`. */
export function publicRoute(hash: string): PublicRoute | undefined {
  const v = /^#\/verify\/(author|artwork)\/([1-9][0-9]{0,9})\/?$/.exec(hash);
  if (v) return { page: 'verify', kind: v[1] as 'author' | 'artwork', id: Number(v[2]) };
  const c = /^#\/certificate\/([1-9][0-9]{0,9})\/?$/.exec(hash);
  if (c) return { page: 'certificate', id: Number(c[1]) };
  return undefined;
}

/** The verification page's absolute URL for a record (what the QR code and an author's wxUrl carry). */
export function verifyUrl(kind: 'author' | 'artwork', id: number, origin = window.location.origin): string {
  return `${origin}/#/verify/${kind}/${id}`;
}
