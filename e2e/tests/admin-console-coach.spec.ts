import { expect, test, type APIRequestContext } from './fixtures.ts';
import { demoPassword } from './helpers.ts';
import { apiLogin, deskLink } from './desk-processes.ts';
import { adminStudio, openSection } from './admin-studio.ts';
import { shoot } from './shots.ts';

/**
 * Decision 045: as the owner and the coach live it in the
 * desk's console (desk:web in Chromium) against its own server: Valeria signs
 * up like any customer; the owner makes her account a Coach in Clientes and
 * picks which coach she is (the Coaches form then shows her e-mail as 'Cuenta
 * del coach'); Valeria signs into the console and sees only Horarios, her own
 * classes of the week, and a class's roster (names, seats, attendance),
 * nothing of the desk or the admin.
 */
const { serverUrl, deskUrl, adminDesk } = adminStudio('admin-console-coach', 70);
const email = 'vale.montes@estudio.demo';

interface CoachWeek {
  instructor: { instructor_id: number; name: string } | null;
  single_classes: { single_class_id: number; reservation_count: number; class_type: { name: string } }[];
}

/** Valeria's account, signed up as anyone does in the portal (an identity, then her customer). */
async function signUpValeria(request: APIRequestContext) {
  const identity = await request.post(`${serverUrl}/api/auth/signup`, { data: { email, password: demoPassword } });
  expect(identity.ok()).toBeTruthy();
  const { idToken } = (await identity.json()) as { idToken: string };
  const pages = (await (await request.get(`${serverUrl}/api/pages`)).json()) as { pages: { page_id: number; required: boolean }[] };
  const signup = await request.post(`${serverUrl}/api/customer/signup`, {
    headers: { authorization: `Bearer ${idToken}` },
    data: { name: 'Valeria', last_name: 'Montes', email, phone: '5598761234', birthdate: '1990-03-14', accepted_page_ids: pages.pages.filter((p) => p.required).map((p) => p.page_id) },
  });
  expect(signup.ok(), await signup.text()).toBeTruthy();
}

/** The studio's Monday and Sunday of this week, as the console asks for them. */
function thisWeek(): { start: string; end: string } {
  const today = new Date(new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(new Date()) + 'T12:00:00Z');
  const monday = new Date(today.getTime() - ((today.getUTCDay() + 6) % 7) * 86_400_000);
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return { start: day(monday), end: day(new Date(monday.getTime() + 6 * 86_400_000)) };
}

test('the owner makes Valeria a Coach in Clientes and picks which coach she is; Coaches shows her account', async ({ page, request }) => {
  await signUpValeria(request);
  await adminDesk(page);
  await openSection(page, 'Clientes');
  await page.getByTestId('admin-search').fill(email);
  await page.getByTestId('admin-customer-row').filter({ hasText: 'Valeria' }).first().click();
  const edit = page.getByTestId('admin-customer-edit');
  await edit.getByLabel('Rol').click();
  await page.getByRole('option', { name: 'Coach', exact: true }).click();
  // Promoted to Coach, the form asks which coach she is.
  await edit.getByLabel('Es el coach').click();
  await page.getByRole('option', { name: 'Valeria Montes', exact: true }).click();
  await shoot(page, 'coach-owner-customer', edit, { fullPage: false });
  await edit.getByRole('button', { name: 'Guardar' }).click();
  await expect(edit.getByText('Cambios guardados.')).toBeVisible();

  // The server stored both: her role and the coach's account.
  const admin = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  await expect
    .poll(async () => {
      const { instructors } = (await (await request.get(`${serverUrl}/api/instructors`, { headers: { authorization: `Bearer ${admin}` } })).json()) as {
        instructors: { name: string; account_email: string | null }[];
      };
      return instructors.find((i) => i.name === 'Valeria')?.account_email;
    })
    .toBe(email);

  // Coaches: the column and the form's 'Cuenta del coach' show her e-mail.
  await openSection(page, 'Coaches');
  const row = page.getByTestId('instructors-row').filter({ hasText: 'Valeria Montes' });
  await expect(row).toContainText(email);
  await row.getByRole('button', { name: 'Editar Valeria Montes' }).click();
  const form = page.getByTestId('instructors-form');
  await expect(form.getByLabel('Cuenta del coach')).toHaveValue(email);
  await shoot(page, 'coach-owner-instructor', form.getByLabel('Cuenta del coach'), { fullPage: false });
  await page.keyboard.press('Escape');
});

test('Valeria signs into the console: only Horarios with her own classes of the week, and a roster', async ({ page, request }) => {
  const token = await apiLogin(request, serverUrl, email);
  const { start, end } = thisWeek();
  const week = (await (await request.get(`${serverUrl}/api/coach/single_class?start_date=${start}&end_date=${end}`, { headers: { authorization: `Bearer ${token}` } })).json()) as CoachWeek;
  expect(week.instructor?.name).toBe('Valeria Montes');
  // The studio pays her $220.00 a class (Mi pago, below).
  const admin = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  const rate = await request.post(`${serverUrl}/api/coach_pay_rules`, {
    headers: { authorization: `Bearer ${admin}` },
    data: { instructor_id: week.instructor!.instructor_id, effective_from: '2020-01-01', kind: 'per_class', amount: '220' },
  });
  expect(rate.ok(), await rate.text()).toBeTruthy();

  await page.goto(deskLink(deskUrl));
  // The owner's session of the first test may still be open on this desk: sign it out.
  const signOut = page.locator('header').getByRole('button', { name: 'Cerrar sesión' });
  const emailField = page.getByLabel('Correo electrónico');
  await expect(signOut.or(emailField)).toBeVisible({ timeout: 60_000 });
  if (await signOut.isVisible()) await signOut.click();
  await emailField.fill(email);
  await page.getByLabel('Contraseña').fill(demoPassword);
  await page.getByRole('button', { name: 'Entrar' }).click();

  const schedule = page.getByTestId('coach-schedule');
  await expect(schedule).toBeVisible({ timeout: 60_000 });
  await expect(schedule.getByRole('heading', { name: 'Horarios' })).toBeVisible();
  // Nothing of the desk or the admin: no sections, no scanner, no customers, no sync of the studio's data.
  await expect(page.getByTestId('admin-nav')).toHaveCount(0);
  await expect(page.getByTestId('scan-column')).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Clientes' })).toHaveCount(0);
  await expect(page.getByTestId('sync-indicator')).toHaveCount(0);

  // Exactly her classes of the week, as the server says.
  const cards = schedule.getByTestId('coach-class');
  await expect(cards).toHaveCount(week.single_classes.length);
  const shown = await cards.evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-class-id'))));
  expect(shown).toEqual(week.single_classes.map((c) => c.single_class_id));
  await shoot(page, 'coach-console');

  // A class with people in it: its roster, by name, seat and attendance.
  const booked = week.single_classes.find((c) => c.reservation_count > 0);
  if (!booked) throw new Error('el seed no da a Valeria una clase con reservaciones esta semana');
  await schedule.locator(`[data-testid="coach-class"][data-class-id="${booked.single_class_id}"]`).click();
  const roster = page.getByTestId('coach-roster');
  await expect(roster).toBeVisible();
  await expect(roster).toContainText(booked.class_type.name);
  await expect(roster.getByRole('columnheader')).toHaveText(['Cliente', 'Lugar', 'Asistió']);
  const rows = roster.getByTestId('coach-roster-row');
  expect(await rows.count()).toBeGreaterThan(0);
  await expect(roster).not.toContainText('@');
  await shoot(page, 'coach-roster', page.getByRole('dialog'), { fullPage: false });
  await page.keyboard.press('Escape');

  // Mi pago: her classes given this month, each at the studio's rate of its day, as the server counts them.
  const own = page.getByTestId('coach-pay-own');
  await expect(own.getByRole('heading', { name: 'Mi pago' })).toBeVisible();
  const month = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(new Date());
  const pay = (await (
    await request.get(`${serverUrl}/api/coach/pay`, { params: { start_date: `${month.slice(0, 8)}01`, end_date: month }, headers: { authorization: `Bearer ${token}` } })
  ).json()) as { classes: { amount: string | null }[]; total: string };
  if (pay.classes.length === 0) await expect(own).toContainText('Sin clases dadas');
  else {
    await expect(own.getByTestId('coach-pay-classes').locator('[data-row]')).toHaveCount(pay.classes.length);
    await expect(own.getByTestId('coach-pay-own-total')).toContainText(new Intl.NumberFormat('es-MX', { minimumFractionDigits: 2 }).format(Number(pay.total)));
    await expect(own).toContainText('$220.00 por clase');
  }
  await own.getByText('Mes pasado').click();
  await expect(own.getByTestId('coach-pay-month')).toBeVisible();
  await shoot(page, 'coach-pay-own', own, { fullPage: false });
});
