import { expect, test } from './fixtures.ts';
import { expectKeyboardOn, expectSignedIn, signIn } from './helpers.ts';
import { addDays, apiLogin, classesBetween, localDate, openClass, studioTimeZone, weekStart, type ScheduleClass } from './booking-helpers.ts';
import { shoot } from './shots.ts';

/**
 * The calendar's filters (coach, discipline, part of the day) and what a
 * class says about itself before the customer books it: the coaches' photos,
 * its level, what to bring and its description (decision 092).
 */

interface DetailedClass extends ScheduleClass {
  description: string | null;
  class_instructors: { instructor_id: number; name: string; last_name: string | null; nick_name: string | null }[];
  class_type: ScheduleClass['class_type'] & { level: string | null; what_to_bring: string | null; description: string | null };
}

const studioHour = (instant: string) => Number(new Intl.DateTimeFormat('en-GB', { timeZone: studioTimeZone, hour: '2-digit', hourCycle: 'h23' }).format(new Date(instant)));
const coachName = (i: DetailedClass['class_instructors'][number]) => i.nick_name?.trim() || [i.name, i.last_name].filter(Boolean).join(' ');

for (const size of [
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
]) {
  test(`at ${size.width}×${size.height}: the week narrows by coach, discipline and time of day, in the address, and widens again`, async ({ page, request }) => {
    test.setTimeout(120_000);
    const token = await apiLogin(request, 'cliente@estudio.demo');
    // Next week: whole, whatever the day and hour the suite runs.
    const monday = weekStart(addDays(localDate(new Date()), 7));
    const week = (await classesBetween(request, monday, addDays(monday, 6), token)) as DetailedClass[];
    expect(week.length).toBeGreaterThan(3);
    // The coach with the most classes, the discipline with the most, and the evening.
    const tally = <K,>(keys: K[]) => [...keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<K, number>())].sort((a, b) => b[1] - a[1])[0]![0];
    const coachId = tally(week.flatMap((c) => c.class_instructors.map((i) => i.instructor_id)));
    const coach = week.flatMap((c) => c.class_instructors).find((i) => i.instructor_id === coachId)!;
    const byCoach = week.filter((c) => c.class_instructors.some((i) => i.instructor_id === coachId));
    const typeId = tally(week.map((c) => c.class_type_id));
    const typeName = week.find((c) => c.class_type_id === typeId)!.class_type.name;
    const coachAndType = byCoach.filter((c) => c.class_type_id === typeId);
    const evening = (list: DetailedClass[]) => list.filter((c) => studioHour(c.class_date) >= 18);

    await signIn(page, 'cliente@estudio.demo');
    await expectSignedIn(page, /Mariana/);
    await page.setViewportSize(size);
    await page.goto(`/mystudio?semana=${monday}`);
    const cards = page.locator('[data-class-id]');
    await expect(cards).toHaveCount(week.length);
    const filters = page.getByRole('group', { name: 'Filtrar clases' });
    const coachSelect = filters.getByRole('combobox', { name: 'Coach' });
    const typeSelect = filters.getByRole('combobox', { name: 'Disciplina' });
    const timeSelect = filters.getByRole('combobox', { name: 'Horario' });
    await expect(coachSelect.locator('option:checked')).toHaveText('Todos los coaches');
    await expect(timeSelect.locator('option')).toHaveText(['Cualquier horario', 'Mañana (antes de 12:00)', 'Tarde (12:00 a 18:00)', 'Noche (desde 18:00)']);

    await coachSelect.selectOption({ label: coachName(coach) });
    await expect(page).toHaveURL(new RegExp(`coach=${coachId}`));
    await expect(cards).toHaveCount(byCoach.length);
    for (const c of byCoach) await expect(page.locator(`[data-class-id="${c.single_class_id}"]`)).toContainText(coachName(coach));
    await expect(page.getByText(`${byCoach.length} de ${week.length} clases esta semana`)).toBeVisible();

    await typeSelect.selectOption({ label: typeName });
    await expect(page).toHaveURL(new RegExp(`disciplina=${typeId}`));
    await expect(cards).toHaveCount(coachAndType.length);
    await shoot(page, 'calendar-filters');

    // The address keeps them: a reload, or the link shared, shows the same narrowed week.
    await page.reload();
    await expect(cards).toHaveCount(coachAndType.length);
    await expect(typeSelect.locator('option:checked')).toHaveText(typeName);

    await typeSelect.selectOption({ label: 'Todas las disciplinas' });
    await timeSelect.selectOption({ label: 'Noche (desde 18:00)' });
    await expect(page).toHaveURL(/horario=noche/);
    const coachEvening = evening(byCoach);
    if (coachEvening.length > 0) await expect(cards).toHaveCount(coachEvening.length);
    else await expect(page.getByText('Ninguna clase de esta semana coincide con tus filtros.')).toBeVisible();

    // A part of the day nobody asked for is no filter; one that the coach's discipline does not have this week leaves
    // nothing, and the week says so and offers the way back.
    await page.goto(`/mystudio?semana=${monday}&horario=madrugada`);
    await expect(timeSelect.locator('option:checked')).toHaveText('Cualquier horario');
    await expect(cards).toHaveCount(week.length);
    const partOf = (c: DetailedClass) => (studioHour(c.class_date) < 12 ? 'manana' : studioHour(c.class_date) < 18 ? 'tarde' : 'noche');
    const absent = (['manana', 'tarde', 'noche'] as const).find((part) => !coachAndType.some((c) => partOf(c) === part));
    if (absent) {
      await page.goto(`/mystudio?semana=${monday}&coach=${coachId}&disciplina=${typeId}&horario=${absent}`);
      await expect(page.getByText('Ninguna clase de esta semana coincide con tus filtros.')).toBeVisible();
      await shoot(page, 'calendar-filters-none');
    } else {
      await page.goto(`/mystudio?semana=${monday}&coach=${coachId}`);
      await expect(cards).toHaveCount(byCoach.length);
    }
    await page.getByRole('button', { name: 'Quitar filtros' }).click();
    await expect(cards).toHaveCount(week.length);
    await expect(page).not.toHaveURL(/coach=|disciplina=|horario=/);
    await expect(page).toHaveURL(new RegExp(`semana=${monday}`));
  });

  test(`at ${size.width}×${size.height}: a class says who teaches it, its level and what to bring before it is booked; closing gives the focus back to its card`, async ({ page, request }) => {
    test.setTimeout(120_000);
    const token = await apiLogin(request, 'cliente@estudio.demo');
    const monday = weekStart(addDays(localDate(new Date()), 7));
    const week = (await classesBetween(request, monday, addDays(monday, 6), token)) as DetailedClass[];
    const target = openClass(week, 1, (c) => Boolean((c as DetailedClass).class_type.level && (c as DetailedClass).class_type.what_to_bring)) as DetailedClass;

    await signIn(page, 'cliente@estudio.demo');
    await expectSignedIn(page, /Mariana/);
    await page.setViewportSize(size);
    await page.goto(`/mystudio?semana=${monday}`);
    const card = page.locator(`[data-class-id="${target.single_class_id}"]`);
    await card.click();
    const dialog = page.getByRole('dialog', { name: 'Reservar Clase' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText(`Nivel: ${target.class_type.level}`)).toBeVisible();
    await expect(dialog.getByText(`Qué traer: ${target.class_type.what_to_bring}`)).toBeVisible();
    // The class's own description, else its type's.
    const description = target.description?.trim() || target.class_type.description?.trim();
    if (description) await expect(dialog.getByTestId('class-description')).toContainText(description.slice(0, 30));
    for (const coach of target.class_instructors) await expect(dialog.getByText(coachName(coach), { exact: false }).first()).toBeVisible();
    await shoot(page, 'class-details', dialog);

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expectKeyboardOn(card);
  });
}
