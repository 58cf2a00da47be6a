import { expect, test, type APIRequestContext } from './fixtures.ts';
import { demoPassword, expectSignedIn, signIn, userMenu } from './helpers.ts';
import { apiLogin, openClass, upcomingClasses, weekStart } from './booking-helpers.ts';

interface Tokens {
  idToken: string;
  refreshToken: string;
  localId: string;
  email: string;
}

/** cliente@'s session as the portal stores it (session-store.ts), signed in through the API, its ID token ending at `expiresAt`. */
async function storedSession(request: APIRequestContext, expiresAt: number) {
  const login = await request.post('/api/auth/login', { data: { email: 'cliente@estudio.demo', password: demoPassword } });
  expect(login.ok()).toBeTruthy();
  const tokens = (await login.json()) as Tokens;
  return { tokens, stored: { idToken: tokens.idToken, refreshToken: tokens.refreshToken, expiresAt, uid: tokens.localId, email: tokens.email } };
}

test('a stored session whose ID token expired is refreshed before the first call', async ({ page, request }) => {
  const { tokens, stored } = await storedSession(request, Date.now() - 1000);
  await page.addInitScript((value) => localStorage.setItem('estudio.session', value), JSON.stringify(stored));

  const refreshed = page.waitForRequest((req) => req.url().includes('/trpc/auth.refresh'));
  await page.goto('/mystudio');
  await refreshed;
  await expectSignedIn(page, /Mariana/);
  const now = await page.evaluate(() => JSON.parse(localStorage.getItem('estudio.session') ?? '{}') as { refreshToken?: string; expiresAt?: number });
  expect(now.refreshToken).not.toBe(tokens.refreshToken);
  expect(now.expiresAt).toBeGreaterThan(Date.now());
});

test('a refresh answered after she moved to another page keeps her signed in, with the token the server gave', async ({ page, request }) => {
  const { tokens, stored } = await storedSession(request, Date.now() - 1000);
  await page.addInitScript((value) => {
    if (!sessionStorage.getItem('seeded')) {
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem('estudio.session', value);
    }
  }, JSON.stringify(stored));
  // The first refresh reaches the server and is answered, but the page moves on before the answer arrives.
  let answered: (body: string) => void = () => {};
  const firstAnswer = new Promise<string>((resolve) => (answered = resolve));
  let held: import('@playwright/test').Route | undefined;
  // The new page's refresh waits until the old page's lost answer is checked: on a busy machine it was answered first,
  // and the stored token was already the successor when the check read it.
  let releaseNext: () => void = () => {};
  const nextMayGo = new Promise<void>((resolve) => (releaseNext = resolve));
  await page.route('**/trpc/auth.refresh**', async (route) => {
    if (held) {
      await nextMayGo;
      return route.continue();
    }
    held = route;
    answered(await (await route.fetch()).text());
  });
  await page.goto('/mystudio');
  const successor = /"refreshToken":"([^"]+)"/.exec(await firstAnswer)?.[1];
  expect(successor).toBeTruthy();
  await page.goto('/mystudio/creditos');
  await held?.abort().catch(() => {});
  expect(await page.evaluate(() => (JSON.parse(localStorage.getItem('estudio.session') ?? '{}') as { refreshToken?: string }).refreshToken)).toBe(
    tokens.refreshToken,
  );
  releaseNext();

  // The new page refreshes with the token the lost answer replaced, and is given that answer's token.
  await expect.poll(() => page.evaluate(() => (JSON.parse(localStorage.getItem('estudio.session') ?? '{}') as { refreshToken?: string }).refreshToken)).toBe(successor);
  await expect(page).toHaveURL(/\/mystudio\/creditos$/);
  await expect(userMenu(page, /Mariana/)).toBeVisible();
});

test('a session the server no longer accepts signs out', async ({ page }) => {
  const stored = { idToken: 'no-es-un-token', refreshToken: 'tampoco', expiresAt: Date.now() + 3_600_000, uid: 'x', email: 'cliente@estudio.demo' };
  await page.addInitScript((value) => {
    if (!sessionStorage.getItem('seeded')) {
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem('estudio.session', value);
    }
  }, JSON.stringify(stored));
  // The loader can be on screen for only a few milliseconds (the server refuses a token that is not one at once):
  // recorded by the page itself rather than polled for.
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (document.body?.textContent?.includes('Accediendo')) document.documentElement.dataset.accessingSeen = 'true';
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  await page.goto('/mystudio');
  await expect(page).toHaveURL(/\/entrar$/);
  expect(await page.evaluate(() => document.documentElement.dataset.accessingSeen)).toBe('true');
  expect(await page.evaluate(() => localStorage.getItem('estudio.session'))).toBeNull();
});

for (const [path, shown] of [
  ['/mystudio/creditos', "'Accediendo'"],
  // The calendar shows without the customer (decision 059): its layout and the week stay, the way out comes above them.
  ['/mystudio', 'the calendar'],
] as const) {
  test(`when the account area does not load, a link after 30 s signs out and goes to /entrar (${path}: ${shown})`, async ({ page, request }) => {
    await page.clock.install();
    const { stored } = await storedSession(request, Date.now() + 3_600_000);
    await page.addInitScript((value) => {
      if (!sessionStorage.getItem('seeded')) {
        sessionStorage.setItem('seeded', '1');
        localStorage.setItem('estudio.session', value);
      }
    }, JSON.stringify(stored));
    // The customer never arrives: the request is left hanging.
    await page.route('**/trpc/customer.me*', () => undefined);
    await page.goto(path);
    if (path === '/mystudio') {
      await expect(page.getByRole('heading', { level: 1, name: 'Calendario' })).toBeVisible();
      await expect(page.locator('[data-class-id]').first()).toBeVisible();
      await expect(page.getByText('Accediendo')).toHaveCount(0);
    } else await expect(page.getByText('Accediendo')).toBeVisible();
    await expect(page.getByText(/si la página no carga en más de 30 segundos/)).toHaveCount(0);
    await page.clock.fastForward(30_500);
    await expect(page.getByText(/si la página no carga en más de 30 segundos/)).toBeVisible();
    await page.getByRole('button', { name: 'Haz clic aquí' }).click();
    await expect(page).toHaveURL(/\/entrar$/);
    expect(await page.evaluate(() => localStorage.getItem('estudio.session'))).toBeNull();
  });
}

test('a class tapped on the calendar while the customer loads opens for the customer, not the sign-in (decision 059)', async ({ page, request }) => {
  const token = await apiLogin(request, 'cliente@estudio.demo');
  const target = openClass(await upcomingClasses(request, token), 2);
  await signIn(page, 'cliente@estudio.demo');
  await expectSignedIn(page, /Mariana/);
  // The customer answers only once the class has been tapped.
  let releaseCustomer = () => undefined as void;
  const customerHeld = new Promise<void>((resolve) => (releaseCustomer = resolve));
  await page.route('**/trpc/customer.me*', async (route) => {
    await customerHeld;
    await route.continue();
  });
  await page.goto(`/mystudio?semana=${weekStart(target.class_date)}`);
  await expect(page.getByRole('button', { name: 'Mi Cuenta' })).toBeVisible();
  await page.locator(`[data-class-id="${target.single_class_id}"]`).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  releaseCustomer();
  await expect(page.getByRole('dialog', { name: 'Reservar Clase' })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Inicia sesión para reservar' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Mariana/ })).toBeVisible();
});

test('any call answering that the ID token was revoked signs out', async ({ page }) => {
  // The calendar at /mystudio loads the schedule; the revoked answers start after it, with the next call.
  const scheduleLoaded = page.waitForResponse((response) => response.url().includes('schedule.list'));
  await signIn(page, 'cliente@estudio.demo');
  await expectSignedIn(page, /Mariana/);
  await scheduleLoaded;
  // As the server answers a token issued before "sign out everywhere" or a password change.
  await page.route('**/trpc/**', async (route) => {
    const paths = new URL(route.request().url()).pathname.replace('/trpc/', '').split(',');
    const error = (path: string) => ({
      error: {
        message: 'Tu sesión fue cerrada. Por favor, inicia sesión de nuevo.',
        code: -32001,
        data: { code: 'UNAUTHORIZED', httpStatus: 401, path, domainCode: 'auth/id-token-revoked' },
      },
    });
    await route.fulfill({ status: 401, json: paths.map(error) });
  });
  await page.getByRole('contentinfo').getByRole('link', { name: 'Avisos' }).click();
  await expect(page.getByText('Lo sentimos, hubo un error al mostrar este contenido.')).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('estudio.session'))).toBeNull();
  await page.unrouteAll();
  await page.goto('/mystudio');
  await expect(page).toHaveURL(/\/entrar$/);
});
