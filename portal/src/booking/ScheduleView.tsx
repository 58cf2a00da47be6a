import { useEffect, useMemo, useRef } from 'react';
import { Alert, Badge, Box, Button, Group, Loader, NativeSelect, Paper, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { IconCalendarOff, IconClock, IconFilterOff, IconMapPin, IconUser, IconYoga } from '@tabler/icons-react';
import { keepPreviousData } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { classBookability, dayParts, hasScheduleFilters, isDayPart, localDate, matchesScheduleFilters, texts, type ScheduleFilters } from '@estudio/core';
import { useAppConfig } from '../config/AppConfigContext.tsx';
import { trpc } from '../api/trpc.ts';
import { errorMessage } from '../api/errors.ts';
import { showError } from '../ui/alerts.ts';
import { ClassCard } from './ClassCard.tsx';
import { WeekNavigator } from './WeekNavigator.tsx';
import { useReserveFlow } from './reserve/useReserveFlow.tsx';
import { coachNames, useNow, useStudioTimeZone } from './time.ts';
import type { SingleClassOutput } from './types.ts';
import { dayLabels, daysOf, isIsoDate, isIsoMonth, monthOfWeek, weekOfDate, weeksOfMonth, type Week } from './week.ts';
import classes from './Schedule.module.css';
import { useViewportQuery } from '../ssr/render-context.ts';

/** Narrows the schedule (the instructor page, the class-type page). */
export interface ScheduleFilter {
  instructor_id?: number;
  class_type_id?: number;
}

function Legend() {
  const items = [
    { state: 'available', label: texts.booking.legendAvailable },
    { state: 'reserved', label: texts.booking.legendReserved },
    { state: 'full', label: texts.booking.legendFull },
    { state: 'special', label: texts.booking.legendSpecial },
  ] as const;
  return (
    <Group gap="md" component="ul" className={classes.legend} aria-label={texts.booking.legendLabel}>
      {items.map((item) => (
        <Group key={item.state} gap={6} component="li" wrap="nowrap">
          <span className={classes.legendSwatch} data-state={item.state} aria-hidden />
          <Text size="sm">{item.label}</Text>
        </Group>
      ))}
    </Group>
  );
}

function EmptyWeek({ text, action }: { text: string; action?: React.ReactNode }) {
  return (
    <Stack align="center" gap="xs" py={56} px="md" className={classes.empty}>
      <IconCalendarOff size={40} stroke={1.4} />
      <Text fw={600} ta="center">
        {text}
      </Text>
      {action}
    </Stack>
  );
}

interface Option {
  value: string;
  label: string;
}

/** Each option once (a coach teaches several classes a week), in alphabetical order. */
function uniqueOptions(options: Option[]): Option[] {
  const seen = new Map<string, Option>();
  for (const o of options) if (!seen.has(o.value)) seen.set(o.value, o);
  return [...seen.values()].sort((a, b) => a.label.localeCompare(b.label, 'es'));
}

/** One of the calendar's filters: the browser's own list, its first choice lets everything through (''). */
function FilterSelect({ label, icon, all, options, value, onChange }: { label: string; icon: React.ReactNode; all: string; options: Option[]; value: string; onChange: (value: string | null) => void }) {
  return (
    <NativeSelect
      aria-label={label}
      leftSection={icon}
      data={[{ value: '', label: all }, ...options]}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value || null)}
    />
  );
}

/** A positive id from the address, or undefined. */
const idParam = (value: string | null): number | undefined => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

/**
 * The weekly schedule of in-person classes (Monday to Sunday): seven columns
 * on wide screens, a day-by-day list on phones. The week, month and location
 * live in the address (?semana=YYYY-MM-DD&mes=YYYY-MM&estudio=ID) so the back
 * button and shared links keep them. Classes that already started are hidden.
 * `filter` narrows it to one instructor's or one class type's classes.
 */
export function ScheduleView({ filter = {} }: { filter?: ScheduleFilter } = {}) {
  const tz = useStudioTimeZone();
  const config = useAppConfig();
  const now = useNow();
  const wide = useViewportQuery('(min-width: 62em)');
  const [params, setParams] = useSearchParams();
  const flow = useReserveFlow();

  const currentWeek = weekOfDate(localDate(now, tz));
  const requested = params.get('semana');
  const week: Week = isIsoDate(requested) && requested >= currentWeek.start_date ? weekOfDate(requested) : currentWeek;
  const requestedMonth = params.get('mes');
  const month = isIsoMonth(requestedMonth) && weeksOfMonth(requestedMonth).some((w) => w.start_date === week.start_date) ? requestedMonth : monthOfWeek(week);
  const locationParam = Number(params.get('estudio'));

  const locations = trpc.locations.list.useQuery({ start_date: week.start_date, end_date: week.end_date }, { placeholderData: keepPreviousData, staleTime: 5 * 60_000 });
  const locationList = locations.data?.locations ?? [];
  const showLocationFilter = locationList.length > 1;
  const locationId = showLocationFilter && locationList.some((l) => l.location_id === locationParam) ? locationParam : undefined;

  const schedule = trpc.schedule.list.useQuery(
    { start_date: week.start_date, end_date: week.end_date, ...filter, ...(locationId ? { location_id: locationId } : {}) },
    { placeholderData: keepPreviousData },
  );

  const update = (changes: Record<string, string | null>) => {
    // From the address as it is now, not as this render saw it: two filters changed in quick succession both stay
    // (the router's functional update does not queue, and the second change would start from the first's stale params).
    const next = new URLSearchParams(window.location.search);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setParams(next, { replace: true });
  };
  // A message's link names the class (`clase`, e.g. a freed waitlist place): once the week is here, the class opens
  // as if tapped (a visitor signs in first and the flow resumes), and the address drops the parameter so a reload or
  // the back button does not open it again.
  const linkedClass = Number(params.get('clase')) || null;
  const utils = trpc.useUtils();
  const opening = useRef<number | null>(null);
  useEffect(() => {
    if (linkedClass === null || !schedule.data || opening.current === linkedClass) return;
    opening.current = linkedClass;
    update({ clase: null });
    const listed = schedule.data.single_classes.find((c) => c.single_class_id === linkedClass);
    void (listed ? Promise.resolve(listed) : utils.schedule.byId.fetch({ id: linkedClass }).then((answer) => answer.single_class))
      .then((c) => flow.open(c))
      .catch((error: unknown) => showError(errorMessage(error)));
  }, [linkedClass, schedule.data]);

  const goWeek = (w: Week) => update({ semana: w.start_date === currentWeek.start_date ? null : w.start_date, mes: null });
  const goMonth = (m: string) => {
    const first = weeksOfMonth(m).find((w) => w.end_date >= currentWeek.start_date) ?? currentWeek;
    update({ semana: first.start_date === currentWeek.start_date ? null : first.start_date, mes: m });
  };

  // The customer's filters (coach, discipline, part of the day) narrow the week she sees, in the address like the rest.
  const dayPartParam = params.get('horario');
  const filters: ScheduleFilters = {
    instructorId: filter.instructor_id === undefined ? idParam(params.get('coach')) : undefined,
    classTypeId: filter.class_type_id === undefined ? idParam(params.get('disciplina')) : undefined,
    dayPart: isDayPart(dayPartParam) ? dayPartParam : undefined,
  };
  const filtered = hasScheduleFilters(filters);

  const nowMs = now.getTime();
  const { byDay, scheduled, upcoming, shown, coachOptions, disciplineOptions } = useMemo(() => {
    const live = (schedule.data?.single_classes ?? []).filter((c) => !c.cancelledAt);
    const ahead = live.filter((c) => Date.parse(c.class_date) > nowMs).sort((a, b) => Date.parse(a.class_date) - Date.parse(b.class_date));
    const matching = ahead.filter((c) => matchesScheduleFilters(c, filters, tz));
    const grouped = new Map<string, SingleClassOutput[]>();
    for (const c of matching) {
      const key = localDate(c.class_date, tz);
      grouped.set(key, [...(grouped.get(key) ?? []), c]);
    }
    return {
      byDay: grouped,
      scheduled: live.length,
      upcoming: ahead.length,
      shown: matching.length,
      // What this week's classes offer: a coach or discipline with no class ahead this week is no choice at all.
      coachOptions: uniqueOptions(ahead.flatMap((c) => c.class_instructors.map((i) => ({ value: String(i.instructor_id), label: coachNames([i]) })))),
      disciplineOptions: uniqueOptions(ahead.map((c) => ({ value: String(c.class_type_id), label: c.class_type.name }))),
    };
  }, [schedule.data, nowMs, tz, filters.instructorId, filters.classTypeId, filters.dayPart]);
  // A filter kept from another week (the address) whose coach or discipline does not teach this one stays listed, so
  // the select says what is filtering; its name comes from the studio's lists.
  const missingCoach = filters.instructorId !== undefined && !coachOptions.some((o) => o.value === String(filters.instructorId));
  const missingDiscipline = filters.classTypeId !== undefined && !disciplineOptions.some((o) => o.value === String(filters.classTypeId));
  const allCoaches = trpc.instructors.list.useQuery(undefined, { enabled: missingCoach, staleTime: 5 * 60_000 });
  const allTypes = trpc.classTypes.list.useQuery(undefined, { enabled: missingDiscipline, staleTime: 5 * 60_000 });
  const coachChoices = missingCoach
    ? [...coachOptions, ...(allCoaches.data?.instructors ?? []).filter((i) => i.instructor_id === filters.instructorId).map((i) => ({ value: String(i.instructor_id), label: coachNames([i]) }))]
    : coachOptions;
  const disciplineChoices = missingDiscipline
    ? [...disciplineOptions, ...(allTypes.data?.class_types ?? []).filter((t) => t.class_type_id === filters.classTypeId).map((t) => ({ value: String(t.class_type_id), label: t.name }))]
    : disciplineOptions;
  const clearFilters = () => update({ coach: null, disciplina: null, horario: null });

  const today = localDate(now, tz);
  const days = daysOf(week);
  const card = (c: SingleClassOutput) => (
    <ClassCard
      key={c.single_class_id}
      singleClass={c}
      view={classBookability(c, { now, config })}
      tz={tz}
      busy={flow.busyClassId === c.single_class_id}
      onSelect={() => flow.start(c)}
    />
  );

  let body: React.ReactNode;
  if (schedule.isError && !schedule.data) {
    body = (
      <Alert color="red" variant="light" title={errorMessage(schedule.error)}>
        <Button variant="light" color="red" size="xs" mt="xs" onClick={() => void schedule.refetch()}>
          {texts.shell.retry}
        </Button>
      </Alert>
    );
  } else if (!schedule.data) {
    body = wide ? (
      <div className={classes.grid}>
        {days.map((d) => (
          <Stack key={d} gap="xs">
            <Skeleton h={44} />
            <Skeleton h={120} />
            <Skeleton h={120} />
          </Stack>
        ))}
      </div>
    ) : (
      <Stack gap="sm">
        <Skeleton h={24} w={180} />
        <Skeleton h={110} />
        <Skeleton h={110} />
      </Stack>
    );
  } else if (upcoming === 0) {
    body = <EmptyWeek text={scheduled === 0 ? texts.booking.noClasses : texts.booking.noMoreClassesThisWeek} />;
  } else if (shown === 0) {
    body = (
      <EmptyWeek
        text={texts.booking.noClassesMatch}
        action={
          <Button variant="light" leftSection={<IconFilterOff size={16} />} onClick={clearFilters} mt="xs">
            {texts.booking.clearFilters}
          </Button>
        }
      />
    );
  } else if (wide) {
    body = (
      <div className={classes.grid}>
        {days.map((d) => {
          const labels = dayLabels(d);
          const list = byDay.get(d) ?? [];
          return (
            <section key={d} className={classes.column} aria-label={labels.long} data-today={d === today || undefined} data-past={d < today || undefined}>
              <header className={classes.dayHeader}>
                <Text size="xs" fw={700} tt="uppercase" className={classes.dayName}>
                  {labels.weekday}
                </Text>
                <Text fw={800} fz={22} lh={1}>
                  {labels.dayOfMonth}
                </Text>
              </header>
              <Stack gap={8}>
                {list.length ? list.map(card) : <div className={classes.dayEmpty} aria-hidden>—</div>}
              </Stack>
            </section>
          );
        })}
      </div>
    );
  } else {
    body = (
      <Stack gap="lg">
        {days
          .filter((d) => byDay.has(d))
          .map((d) => {
            const labels = dayLabels(d);
            return (
              <section key={d} aria-label={labels.long}>
                <Group gap="xs" mb={8}>
                  <Text fw={700}>
                    {labels.long}
                  </Text>
                  {d === today && (
                    <Badge size="sm" variant="light">
                      {texts.booking.today}
                    </Badge>
                  )}
                </Group>
                <div className={classes.list}>{(byDay.get(d) ?? []).map(card)}</div>
              </section>
            );
          })}
      </Stack>
    );
  }

  return (
    <Paper withBorder radius="lg" p={{ base: 'sm', sm: 'lg' }} className={classes.panel}>
      <Stack gap="md">
        <WeekNavigator month={month} week={week} currentWeek={currentWeek} compact={!wide} onMonth={goMonth} onWeek={goWeek} />
        <Legend />
        {/* The browser's own lists: a phone opens its native picker, and the page carries no dropdown code. On a phone one
            to a row, so every choice ('Todas las disciplinas', 'Todos los Estudios') reads whole. */}
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" verticalSpacing="xs" role="group" aria-label={texts.booking.filtersLabel}>
          {showLocationFilter && (
            <FilterSelect
              label={texts.booking.locationFilter}
              icon={<IconMapPin size={16} />}
              all={texts.booking.allLocations}
              options={locationList.map((l) => ({ value: String(l.location_id), label: l.name }))}
              value={locationId ? String(locationId) : ''}
              onChange={(value) => update({ estudio: value })}
            />
          )}
          {filter.instructor_id === undefined && (
            <FilterSelect
              label={texts.booking.coachFilter}
              icon={<IconUser size={16} />}
              all={texts.booking.allCoaches}
              options={coachChoices}
              value={filters.instructorId ? String(filters.instructorId) : ''}
              onChange={(value) => update({ coach: value })}
            />
          )}
          {filter.class_type_id === undefined && (
            <FilterSelect
              label={texts.booking.disciplineFilter}
              icon={<IconYoga size={16} />}
              all={texts.booking.allDisciplines}
              options={disciplineChoices}
              value={filters.classTypeId ? String(filters.classTypeId) : ''}
              onChange={(value) => update({ disciplina: value })}
            />
          )}
          <FilterSelect
            label={texts.booking.dayPartFilter}
            icon={<IconClock size={16} />}
            all={texts.booking.anyTime}
            options={dayParts.map((part) => ({ value: part, label: texts.booking.dayParts[part] }))}
            value={filters.dayPart ?? ''}
            onChange={(value) => update({ horario: value })}
          />
        </SimpleGrid>
        {filtered && shown > 0 && (
          <Group gap="xs" justify="space-between">
            <Text size="sm" c="dimmed" aria-live="polite">
              {texts.booking.classesShown(shown, upcoming)}
            </Text>
            <Button variant="subtle" size="compact-sm" leftSection={<IconFilterOff size={14} />} onClick={clearFilters}>
              {texts.booking.clearFilters}
            </Button>
          </Group>
        )}
        <Box pos="relative">
          {schedule.isFetching && schedule.data && <Loader size="xs" className={classes.refreshing} aria-hidden />}
          {body}
        </Box>
      </Stack>
      {flow.modals}
    </Paper>
  );
}
