import { expect, test } from './fixtures.ts';
import { signIn } from './helpers.ts';
import { fillSandboxCard, packageId, signUpInline } from './checkout-helpers.ts';

test.describe('Mis Compras, Mis Cargos y Métodos de Pago', () => {
  test('cliente@ sees purchases with badges, charges, and cards on mobile', async ({ page }) => {
    await signIn(page, 'cliente@estudio.demo');
    await expect(page).toHaveURL(/\/mystudio$/);
    await page.getByRole('button', { name: /Mariana/ }).click();
    await page.getByRole('menuitem', { name: 'Mis Compras' }).click();
    await expect(page).toHaveURL(/\/mystudio\/membresias$/);
    const table = page.getByRole('table', { name: 'Mis Compras' });
    await expect(table.getByRole('columnheader')).toHaveText(['Folio', 'Paquete', 'Total', 'Fecha', 'Estado', 'Sig. Cargo', 'Factura', 'Acciones']);
    await expect(table.getByRole('row').nth(1)).toBeVisible();
    await expect(table.getByText(/^(Activa|Completada|Pendiente|Fallido|Cancelada.*|Revocada)$/).first()).toBeVisible();
    // Cancelling is a subscription's, offered for the same purchases at every width (decision 103).
    const cancellable = await table.getByRole('button', { name: 'Cancelar Suscripción' }).count();

    await page.goto('/mystudio/pagos');
    const charges = page.getByRole('table', { name: 'Mis Cargos' });
    await expect(charges.getByRole('columnheader')).toHaveText(['Folio', 'Compra', 'Paquete', 'Total', 'Fecha', 'Próximo', 'Estado']);
    await expect(charges.getByRole('row').nth(1)).toBeVisible();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/mystudio/membresias');
    await expect(page.getByTestId('purchase-card').first()).toBeVisible();
    await expect(page.getByRole('table', { name: 'Mis Compras' })).toBeHidden();
    await expect(page.getByTestId('purchase-card').getByRole('button', { name: 'Cancelar Suscripción' })).toHaveCount(cancellable);
    expect(await page.getByTestId('purchase-card').count()).toBeGreaterThan(cancellable);
  });

  test('a card saved at checkout is listed in Métodos de Pago and can be deleted', async ({ page, request }) => {
    const id = await packageId(request, '1 Clase');
    await page.goto(`/checkout/${id}`);
    await signUpInline(page, 'Paula');
    await fillSandboxCard(page, '5555 5555 5555 4444');
    await page.getByRole('checkbox', { name: 'Guardar esta tarjeta para futuras compras' }).check();
    await page.getByRole('button', { name: 'Pagar Ahora' }).click();
    await expect(page).toHaveURL(/\/gracias\/\d+$/);

    await page.goto('/mystudio/metodos');
    const card = page.getByTestId('payment-source');
    await expect(card).toHaveCount(1);
    await expect(card).toContainText('Mastercard');
    await expect(card).toContainText('4444');
    await card.getByRole('button', { name: /Eliminar/ }).click();
    // One tap no longer deletes; the dialog asks first.
    await page.getByRole('dialog', { name: 'Eliminar tarjeta' }).getByRole('button', { name: 'Sí, eliminar' }).click();
    await expect(page.getByText('Metodo de Pago eliminado con éxito.')).toBeVisible();
    await expect(page.getByText('No hay metodos de pago registrados')).toBeVisible();
  });
});
