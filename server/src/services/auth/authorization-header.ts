/**
 * The ID token of an `Authorization` header: `Bearer <token>` as the spec
 * says, or the bare `<token>` the studio's previous admin panel sends
 * (Firebase's ID token with no scheme). Any other scheme (`Basic
 * …`) or a header with spaces in it is no token: the call is anonymous.
 * The one reader of the header, for /trpc, /api and the upload routes alike.
 */
export function idTokenOf(header: string | undefined): string | null {
  const value = header?.trim();
  if (!value) return null;
  const bearer = /^Bearer\s+(\S+)$/i.exec(value);
  if (bearer) return bearer[1] ?? null;
  return /^\S+$/.test(value) && !/^Bearer$/i.test(value) ? value : null;
}
