/*
 * The portal's service worker (decision 106): the account area opens without
 * a connection, so the app installed on a phone's home screen shows the next
 * class's access code at the studio's door with no signal.
 *
 * - The build's fingerprinted files (/assets/…) are kept once fetched and
 *   served from here first: a name never changes content.
 * - The account's pages (/mystudio…) come from the network; the last answer of
 *   each is kept and served when the network fails.
 * - Everything else (the API, tRPC, uploaded files, the public pages) goes to
 *   the network untouched: no customer data is cached here; the access codes
 *   the offline screen shows are kept by the app in the browser's storage and
 *   removed at sign-out.
 * - The app names what its page loaded ('keep'), so a first visit, made
 *   before this worker controlled the page, is kept too.
 */
const ASSETS = 'estudio-assets-v1';
const PAGES = 'estudio-pages-v1';
/** Where the installed app starts (the manifest's start_url): kept whatever page the customer was on. */
const START = '/mystudio';

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== ASSETS && name !== PAGES) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

const isAsset = (url) => url.origin === self.location.origin && url.pathname.startsWith('/assets/');
const isAccountPage = (url) => url.origin === self.location.origin && (url.pathname === START || url.pathname.startsWith(`${START}/`));

async function keep(urls) {
  const assets = await caches.open(ASSETS);
  const pages = await caches.open(PAGES);
  await Promise.all(
    urls.map(async (href) => {
      const url = new URL(href, self.location.origin);
      if (!isAsset(url) && !isAccountPage(url)) return;
      const cache = isAsset(url) ? assets : pages;
      if (isAsset(url) && (await cache.match(url.pathname))) return;
      try {
        const answer = await fetch(url.pathname, { credentials: 'same-origin' });
        if (answer.ok) await cache.put(url.pathname, answer);
      } catch {
        // Offline already: kept next time.
      }
    }),
  );
}

self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'keep' && Array.isArray(event.data.urls)) event.waitUntil(keep(event.data.urls));
});

async function assetFirstFromCache(request) {
  const cache = await caches.open(ASSETS);
  const url = new URL(request.url);
  const kept = await cache.match(url.pathname);
  if (kept) return kept;
  const answer = await fetch(request);
  if (answer.ok) await cache.put(url.pathname, answer.clone());
  return answer;
}

async function pageFromNetworkFirst(request) {
  const cache = await caches.open(PAGES);
  const url = new URL(request.url);
  try {
    const answer = await fetch(request);
    if (answer.ok) await cache.put(url.pathname, answer.clone());
    return answer;
  } catch (error) {
    const kept = (await cache.match(url.pathname)) ?? (await cache.match(START)) ?? (await cache.keys().then((keys) => (keys[0] ? cache.match(keys[0]) : undefined)));
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (isAsset(url)) event.respondWith(assetFirstFromCache(request));
  else if (request.mode === 'navigate' && isAccountPage(url)) event.respondWith(pageFromNetworkFirst(request));
});
