/**
 * Where the signed-in identity's tokens are kept (localStorage). Its own
 * module because the portal's tiny entry (boot.ts) reads it too: a page that
 * starts its app on demand starts it at once for someone signed in, whose
 * header and prices the app shows (decision 054).
 */
export const SESSION_STORAGE_KEY = 'estudio.session';
