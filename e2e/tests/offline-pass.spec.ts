import { expect, test, type Page } from './fixtures.ts';
import { apiLogin, bearer } from './booking-helpers.ts';
import { expectSignedIn, signIn } from './helpers.ts';
import { shoot } from './shots.ts';

/**
 * The portal installs on a phone's home screen and shows the next class's
 * access code with no connection (decision 106): a manifest that opens the
 * account area, a service worker that keeps its pages and files, and the next
 * classes' codes kept on the phone while online, forgotten at sign-out.
 * The rest of the suite blocks service workers; this file lets them run.
 */
test.use({ serviceWorkers: 'allow' });

const formatted = (code: string) => `${code.slice(0, 5)}-${code.slice(5)}`;

/** Until the worker controls the page and has kept the account's start page. */
async function keptForOffline(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          if (!navigator.serviceWorker.controller) return false;
          const pages = await caches.open('estudio-pages-v1');
          const kept = Object.keys(localStorage).some((key) => key.startsWith('estudio.pases.'));
          return kept && (await pages.match('/mystudio')) !== undefined;
        }),
      { timeout: 20_000 },
    )
    .toBe(true);
}

for (const size of [
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
]) {
  test(`at ${size.width}×${size.height}: with no connection the account opens on the next class's access code; signing out forgets it`, async ({ page, context, request }) => {
    test.setTimeout(120_000);
    const token = await apiLogin(request, 'cliente@estudio.demo');
    const mine = (await (await request.get('/api/class_reservations/mine', { params: { filter: 'upcoming' }, headers: bearer(token) })).json()) as {
      class_reservations: { access_code: string; single_class: { class_date: string; cancelledAt: string | null; class_type: { name: string } } }[];
    };
    const next = mine.class_reservations.filter((r) => r.single_class.cancelledAt === null).sort((a, b) => Date.parse(a.single_class.class_date) - Date.parse(b.single_class.class_date))[0];
    expect(next, 'cliente@ has a class ahead in the demo').toBeDefined();

    // Installable: the page names the manifest, which opens the account area with the studio's name and icons.
    await page.goto('/entrar');
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
    const manifest = (await (await request.get('/manifest.webmanifest')).json()) as { name: string; start_url: string; icons: { src: string }[] };
    expect(manifest).toMatchObject({ name: 'Estudio Demo', start_url: '/mystudio' });
    for (const { src } of manifest.icons) expect((await request.get(src)).headers()['content-type']).toBe('image/png');

    await signIn(page, 'cliente@estudio.demo');
    await expectSignedIn(page, /Mariana/);
    await page.setViewportSize(size);
    await keptForOffline(page);
    // Nothing shows while online.
    await expect(page.getByTestId('offline-pass')).toHaveCount(0);

    await context.setOffline(true);
    await page.goto('/mystudio');
    // Chromium 150 opens a document navigated to in an offline context with navigator.onLine true: the emulation
    // reaches only the documents already open. Switching again tells this one, as a phone's own state would.
    await context.setOffline(false);
    await context.setOffline(true);
    await expect(page.getByText('Sin conexión')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Tu próxima clase' })).toBeVisible();
    await expect(page.getByTestId('offline-access-code').first()).toHaveText(formatted(next!.access_code));
    await expect(page.locator(`[data-pass-id]`).first()).toContainText(next!.single_class.class_type.name);
    await expect(page.getByRole('img', { name: 'Código de Acceso' })).toBeVisible();
    await shoot(page, 'offline-pass');

    // Back online she is still signed in; losing the connection on a page already open shows the same codes above it.
    await context.setOffline(false);
    await page.goto('/mystudio/reservaciones');
    await expect(page.getByRole('heading', { name: 'Mis Reservaciones' })).toBeVisible();
    await context.setOffline(true);
    await expect(page.getByTestId('offline-pass')).toBeVisible();
    await expect(page.getByTestId('offline-access-code').first()).toHaveText(formatted(next!.access_code));
    await context.setOffline(false);
    await expect(page.getByTestId('offline-pass')).toHaveCount(0);

    // Signing out leaves no access code in the browser.
    if (size.width < 600) {
      await page.getByRole('button', { name: 'Abrir menú' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Salir' }).click();
    } else {
      await page.getByRole('button', { name: /Mariana/ }).click();
      await page.getByRole('menuitem', { name: 'Salir' }).click();
    }
    await expect(page).toHaveURL(/\/entrar$/);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('estudio.pases.')))).toEqual([]);
  });
}
