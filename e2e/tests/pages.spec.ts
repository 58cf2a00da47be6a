import { expect, test } from './fixtures.ts';
import { apiLogin, createPage, removePage, uniqueSuffix } from './content-helpers.ts';

test.describe('Páginas de información', () => {
  test('an HTML page with a <script> renders its content without running it', async ({ page, request }) => {
    const admin = await apiLogin(request, 'admin@estudio.demo');
    const slug = `reglas-${uniqueSuffix()}`;
    const created = await createPage(request, admin, {
      slug,
      title: 'Reglas del estudio',
      content:
        '<h2>Bienvenida</h2><p>Llega diez minutos antes.</p><script>window.__pwned = "script"</script><img src="x" onerror="window.__pwned = \'onerror\'" alt="">',
    });
    try {
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto(`/${slug}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Reglas del estudio' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: 'Bienvenida' })).toBeVisible();
      await expect(page.getByText('Llega diez minutos antes.')).toBeVisible();
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
      expect(await page.locator('main script').count()).toBe(0);
      expect(await page.locator('main [onerror]').count()).toBe(0);
      expect(dialogs).toEqual([]);
    } finally {
      await removePage(request, admin, created.page_id);
    }
  });

  test("a page without content shows 'Sin contenido.'", async ({ page, request }) => {
    const admin = await apiLogin(request, 'admin@estudio.demo');
    const slug = `vacia-${uniqueSuffix()}`;
    const created = await createPage(request, admin, { slug, title: 'Página vacía', content: '' });
    try {
      await page.goto(`/${slug}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Página vacía' })).toBeVisible();
      await expect(page.getByText('Sin contenido.')).toBeVisible();
    } finally {
      await removePage(request, admin, created.page_id);
    }
  });

  test('Avisos, Ubicación and Preguntas frecuentes', async ({ page }) => {
    await page.goto('/avisos');
    await expect(page.getByRole('heading', { level: 1, name: 'Avisos' })).toBeVisible();
    await expect(page.getByText('No hay avisos por mostrar.').or(page.locator('main h3').first())).toBeVisible();

    await page.goto('/ubicacion');
    await expect(page.getByRole('heading', { level: 1, name: 'Ubicación' })).toBeVisible();
    await expect(page.getByText('Av. Álvaro Obregón 120, Roma Norte, Ciudad de México').first()).toBeVisible();

    await page.goto('/preguntas-frecuentes');
    await expect(page.getByRole('heading', { level: 1, name: 'Preguntas frecuentes' })).toBeVisible();
    await expect(page.getByRole('heading', { name: '¿Necesito experiencia previa?' })).toBeVisible();
  });
});
