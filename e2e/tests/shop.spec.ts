import { expect, test } from './fixtures.ts';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import 'dayjs/locale/es.js';
import { studioTimeZone } from './booking-helpers.ts';
import { checkoutSizes, shootHere, shopPackages, signUpInline } from './checkout-helpers.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

test.describe('Paquetes', () => {
  test('the shop lists trial, regular (unlimited last), online and special-event packages', async ({ page }) => {
    await page.goto('/paquetes');
    await expect(page.getByRole('heading', { name: 'Paquetes', exact: true })).toBeVisible();

    await expect(page.getByRole('region', { name: 'Clase de Prueba' }).getByRole('heading', { level: 3 })).toHaveText(['Clase de prueba']);
    const regular = page.getByRole('region', { name: 'Paquetes Presenciales' });
    await expect(regular.getByRole('heading', { level: 3 })).toHaveText(['1 Clase', '5 Clases', '10 Clases', 'Ilimitado Mensual']);
    await expect(page.getByRole('region', { name: 'Paquetes Online' }).getByRole('heading', { level: 3 })).toHaveText(['Online Mensual']);
    await expect(page.getByRole('region', { name: 'Eventos Especiales' }).getByRole('heading', { level: 3 })).toHaveText(['Masterclass Sunset Yoga']);
    // The enrolment fee is bought from its own link, not from the shop.
    await expect(page.getByText('Inscripción', { exact: true })).toHaveCount(0);

    const ten = regular.getByTestId('package-card').filter({ hasText: '10 Clases' });
    await expect(ten.getByTestId('original-price')).toHaveText('$1,500.00');
    await expect(ten.getByTestId('original-price')).toHaveCSS('text-decoration-line', 'line-through');
    await expect(ten.getByTestId('price')).toHaveText('$1,350.00');
    await expect(regular.getByTestId('package-card').filter({ hasText: 'Ilimitado Mensual' })).toContainText('por mes');

    await ten.getByRole('link', { name: 'Comprar 10 Clases' }).click();
    await expect(page).toHaveURL(/\/checkout\/\d+$/);
    await expect(page.getByTestId('checkout-title')).toHaveText('10 Clases');
  });

  for (const size of checkoutSizes) {
    test(`a special event's card says when the event is (${size.width}x${size.height})`, async ({ page, request }) => {
      await page.setViewportSize({ width: size.width, height: size.height });
      const event = (await shopPackages(request)).find((p) => p.title === 'Masterclass Sunset Yoga');
      expect(event?.event_date).toBeTruthy();
      // DD MMM YYYY HH:mm on the studio's clock, as the order page writes dates.
      const when = dayjs(event!.event_date!).tz(studioTimeZone).locale('es').format('DD MMM YYYY HH:mm');
      await page.goto('/paquetes');
      const card = page.getByRole('region', { name: 'Eventos Especiales' }).getByTestId('package-card').filter({ hasText: 'Masterclass Sunset Yoga' });
      await expect(card.getByTestId('event-date')).toHaveText(`Fecha del evento: ${when}`);
      // Only special events carry a date.
      await expect(page.getByRole('region', { name: 'Paquetes Presenciales' }).getByTestId('event-date')).toHaveCount(0);
      await shootHere(page, 'shop-event', card);
    });
  }

  test('a free trial class is taken with Obtener Oferta once the documents are accepted', async ({ page }) => {
    await page.goto('/paquetes');
    await page.getByRole('link', { name: 'Comprar Clase de prueba' }).click();
    await expect(page.getByTestId('checkout-title')).toHaveText('Clase de prueba');
    await signUpInline(page, 'Lucia', { free: true });
    const offer = page.getByRole('button', { name: 'Obtener Oferta' });
    await expect(offer).toBeDisabled();
    await page.getByRole('checkbox', { name: /Acepto los siguientes documentos/ }).check();
    await offer.click();
    await expect(page).toHaveURL(/\/gracias\/\d+$/);
    await expect(page.getByRole('heading', { name: 'Clase de prueba' })).toBeVisible();
    await expect(page.getByText('$0.00 MXN')).toBeVisible();
  });
});
