import { useSearchParams } from 'react-router';

/** The query parameter of /entrar and /registro naming the page to go back to once signed in. */
export const RETURN_PARAM = 'siguiente';

/** The portal's own pages a sign-in may return to: the account area, an order, a checkout, the calendar. */
const returnable = /^\/(mystudio(\/[\w\-/]*)?|gracias\/\d+|checkout\/\d+|calendario)(\?[\w\-=&%.]*)?$/;

/** `value` when it is one of the portal's own pages (never another site, never '//host'), else /mystudio. */
export function safeReturnTo(value: string | null | undefined): string {
  return value && returnable.test(value) ? value : '/mystudio';
}

/** /entrar (or /registro), remembering the page a link asked for: signed out, /mystudio/reservaciones lands back there. */
export function signInPath(returnTo: string | null | undefined, page: '/entrar' | '/registro' = '/entrar'): string {
  const target = safeReturnTo(returnTo);
  return target === '/mystudio' ? page : `${page}?${RETURN_PARAM}=${encodeURIComponent(target)}`;
}

/** The page this sign-in or sign-up returns to. */
export function useReturnTo(): string {
  const [params] = useSearchParams();
  return safeReturnTo(params.get(RETURN_PARAM));
}
