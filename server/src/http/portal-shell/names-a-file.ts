/**
 * Whether a request path names a file rather than a page of the portal: its
 * last segment ends in an extension ('/demo/coaches/ana.jpg', '/assets/x.js',
 * '/robots.txt'). The portal's routes never do (slugs, ids and access codes
 * have no dots), so a missing file answers 404 instead of the app's HTML, which
 * an <img> would take for a picture that loaded.
 */
export function namesAFile(url: string): boolean {
  const end = url.search(/[?#]/);
  const pathname = end === -1 ? url : url.slice(0, end);
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return /\.[A-Za-z0-9]{1,8}$/.test(last);
}
