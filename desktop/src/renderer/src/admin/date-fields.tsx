// The console's date, date-time and hour fields, on the studio's clock.
import { texts } from '@estudio/core';
import { Button, Group, Input, Pill, Text, type StyleProp } from '@mantine/core';
import { DatePickerInput, DateTimePicker, TimePicker } from '@mantine/dates';
import { IconClock, IconPlus } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState, type CSSProperties } from 'react';
import { instantAtStudioWallTime, studioWallTime } from '../format.ts';

const t = texts.adminConsole;

/** The console's one date field: a calendar in Spanish (DatesProvider), the value a day 'YYYY-MM-DD'. */
export function DateField({
  label,
  value,
  onChange,
  error,
  required,
  disabled,
  description,
  testId,
  w,
}: {
  label: string;
  value: string | null;
  onChange: (day: string | null) => void;
  error?: string | undefined;
  required?: boolean | undefined;
  disabled?: boolean | undefined;
  description?: string | undefined;
  testId?: string | undefined;
  w?: StyleProp<CSSProperties['width']> | undefined;
}) {
  return (
    <DatePickerInput
      label={label}
      description={description}
      data-testid={testId}
      w={w}
      required={required}
      disabled={disabled}
      clearable={!required}
      value={value ? dayjs(value).toDate() : null}
      onChange={(v) => onChange(v ? dayjs(v).format('YYYY-MM-DD') : null)}
      valueFormat="D MMM YYYY"
      placeholder={t.pickDate}
      error={error}
    />
  );
}

/**
 * The console's one date-time field (a discount's dates, a special event's
 * date): Mantine's DateTimePicker on the studio's wall clock. The value is an
 * instant (ISO); what is shown and picked is the studio's hour, sent with the
 * studio's offset, so the time typed reaches the server unchanged whatever the
 * zone of the computer.
 */
export function DateTimeField({
  label,
  value,
  onChange,
  error,
  required,
  testId,
}: {
  label: string;
  value: string | null;
  onChange: (iso: string | null) => void;
  error?: string | undefined;
  required?: boolean | undefined;
  testId?: string | undefined;
}) {
  return (
    <DateTimePicker
      label={label}
      required={required}
      clearable={!required}
      value={value ? studioWallTime(value) : null}
      onChange={(wall) => onChange(wall ? instantAtStudioWallTime(wall) : null)}
      valueFormat="D MMM YYYY HH:mm"
      placeholder={t.pickDateTime}
      timePickerProps={{ hoursInputLabel: t.hours, minutesInputLabel: t.minutes }}
      submitButtonProps={{ 'aria-label': t.pickDone }}
      error={error}
      data-testid={testId}
    />
  );
}

/**
 * The console's one hour field (decision 046): Mantine's TimePicker, 24 h,
 * minutes in steps of 5, its hours and minutes picked from lists (or typed
 * into its two boxes); the value stays 'HH:mm', as the routes take it.
 */
export function TimeField({
  label,
  value,
  onChange,
  error,
  required,
  testId,
  flex,
}: {
  label: string;
  value: string;
  onChange: (time: string) => void;
  error?: string | undefined;
  required?: boolean | undefined;
  testId?: string | undefined;
  flex?: number | undefined;
}) {
  return (
    <TimePicker
      label={label}
      required={required}
      value={value}
      onChange={onChange}
      format="24h"
      withDropdown
      minutesStep={5}
      clearable={!required}
      hoursInputLabel={t.hours}
      minutesInputLabel={t.minutes}
      leftSection={<IconClock size={16} />}
      error={error}
      data-testid={testId}
      flex={flex}
    />
  );
}

/** 'HH:mm' hours of a comma list, sorted and each once ('07:00,18:30'). */
export function timeList(value: string): string[] {
  return [...new Set(value.split(',').map((x) => x.trim()).filter((x) => /^\d{2}:\d{2}$/.test(x)))].sort();
}

/**
 * Several hours (a repeat's start times, a package's allowed hours): one
 * TimeField and 'Agregar', the hours chosen shown as pills that can be
 * removed. The value stays the comma list the routes take ('07:00,18:30').
 */
export function TimeListField({
  label,
  value,
  onChange,
  error,
  testId,
  emptyText = t.timeNone,
  flex,
}: {
  label: string;
  value: string;
  onChange: (times: string) => void;
  error?: string | undefined;
  testId: string;
  emptyText?: string;
  flex?: number | undefined;
}) {
  const [picked, setPicked] = useState('');
  const times = timeList(value);
  const add = () => {
    if (!/^\d{2}:\d{2}$/.test(picked)) return;
    onChange(timeList([...times, picked].join(',')).join(','));
    setPicked('');
  };
  return (
    <Input.Wrapper label={label} error={error} data-testid={testId} style={flex ? { flex, minWidth: 260 } : undefined}>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TimePicker
          aria-label={label}
          value={picked}
          onChange={setPicked}
          format="24h"
          withDropdown
          minutesStep={5}
          hoursInputLabel={t.hours}
          minutesInputLabel={t.minutes}
          leftSection={<IconClock size={16} />}
          data-testid={`${testId}-picker`}
          flex={1}
          miw={130}
        />
        <Button variant="light" leftSection={<IconPlus size={14} />} onClick={add} disabled={!/^\d{2}:\d{2}$/.test(picked)} data-testid={`${testId}-add`}>
          {t.timeAdd}
        </Button>
      </Group>
      <Group gap={6} mt={6} data-testid={`${testId}-times`}>
        {times.length === 0 ? (
          <Text size="xs" c="dimmed">
            {emptyText}
          </Text>
        ) : (
          times.map((time) => (
            <Pill
              key={time}
              size="md"
              withRemoveButton
              onRemove={() => onChange(times.filter((x) => x !== time).join(','))}
              // Mantine hides the remove button from screen readers (aria-hidden); here it is the way to take an hour out.
              removeButtonProps={{ 'aria-label': t.timeRemove(time), 'aria-hidden': false, tabIndex: 0 }}
              data-testid={`${testId}-time`}
            >
              {time}
            </Pill>
          ))
        )}
      </Group>
    </Input.Wrapper>
  );
}
