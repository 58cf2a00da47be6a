import { ActionIcon, Alert, Button, Center, FileButton, Group, Image, Input, Loader, Modal, Pagination, Pill, Stack, Text, TextInput, Tooltip, type StyleProp } from '@mantine/core';
import { DatePickerInput, DateTimePicker, TimePicker } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import { IconClock, IconPencil, IconPhoto, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { texts } from '@estudio/core';
import { useState, type CSSProperties, type ReactNode } from 'react';
import { errorText, instantAtStudioWallTime, studioWallTime } from '../format.ts';
import { trpc } from '../trpc.ts';

const t = texts.adminConsole;

/** A search box whose value reaches the server 300 ms after the last key. */
export function useSearch(): { query: string; debounced: string; input: ReactNode; reset: () => void } {
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query.trim(), 300);
  const input = (
    <TextInput
      placeholder={t.search}
      leftSection={<IconSearch size={16} />}
      value={query}
      onChange={(e) => setQuery(e.currentTarget.value)}
      w={320}
      data-testid="admin-search"
      aria-label={t.search}
    />
  );
  return { query, debounced, input, reset: () => setQuery('') };
}

/** '26–50 de 112' and the page buttons; the server pages the rows. */
/** Pages of a list; `capped`: more match than `total` (a customer search counts up to a cap), so the last page shown is the cap's. */
export function Pager({ page, limit, total, capped = false, onChange }: { page: number; limit: number; total: number; capped?: boolean; onChange: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / limit));
  const from = total === 0 ? 0 : (page - 1) * limit + 1;
  const to = Math.min(total, page * limit);
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed" data-testid="admin-total">
        {t.totalOf(from, to, total, capped)}
      </Text>
      {pages > 1 && <Pagination total={pages} value={page} onChange={onChange} size="sm" />}
    </Group>
  );
}

/** Loading, error or the content of a server read. */
export function Loaded({ query, children }: { query: { isPending: boolean; error: unknown }; children: () => ReactNode }) {
  if (query.error) return <Alert color="red">{errorText(query.error)}</Alert>;
  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  return <>{children()}</>;
}

/** A confirmation before an irreversible change; the error of the change shows inside. No `confirmLabel`: only Cerrar (the change is refused and the text says why). */
export function ConfirmModal({
  opened,
  title,
  children,
  confirmLabel,
  onConfirm,
  onClose,
  loading,
  error,
  color = 'red',
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string | null;
  onConfirm: () => void;
  onClose: () => void;
  loading: boolean;
  error: unknown;
  color?: string;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Stack>
        {children}
        {error ? <Alert color="red">{errorText(error)}</Alert> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t.close}
          </Button>
          {confirmLabel !== null && (
            <Button color={color} onClick={onConfirm} loading={loading} data-testid="confirm-button">
              {confirmLabel}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}

/** The form's own error (not tied to a field). */
export function FormError({ message }: { message: string | null }) {
  return message ? (
    <Alert color="red" data-testid="form-error">
      {message}
    </Alert>
  ) : null;
}

/** A line of help under a screen's tools. */
export function Hint({ children }: { children: ReactNode }) {
  return (
    <Text size="sm" c="dimmed">
      {children}
    </Text>
  );
}

/** The edit and delete icons at the end of a list row; `name` makes each button's label unique for screen readers and tests. No `onDelete`: no delete icon. */
export function RowActions({ name, onEdit, onDelete, end = false }: { name: string; onEdit: () => void; onDelete?: (() => void) | undefined; end?: boolean }) {
  return (
    <Group gap={4} wrap="nowrap" justify={end ? 'flex-end' : undefined}>
      <Tooltip label={t.edit}>
        <ActionIcon variant="subtle" aria-label={`${t.edit} ${name}`} onClick={onEdit}>
          <IconPencil size={18} />
        </ActionIcon>
      </Tooltip>
      {onDelete && (
        <Tooltip label={t.delete}>
          <ActionIcon variant="subtle" color="red" aria-label={`${t.delete} ${name}`} onClick={onDelete}>
            <IconTrash size={18} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}

/** What the console's image fields accept before sending (the server checks again). */
const imageTypes = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];
const imageMaxBytes = 5 * 1024 * 1024;

function base64Of(file: File): Promise<string> {
  return file.arrayBuffer().then((buffer) => {
    let binary = '';
    const bytes = new Uint8Array(buffer);
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(binary);
  });
}

/**
 * Sends a picked picture to the studio's file storage (through the desk):
 * a non-image or a file over 5 MB is refused in Spanish before sending, and
 * the server checks again. Null when refused; `problem` says why.
 */
export function useImageUpload(): { upload: (file: File | null) => Promise<{ src: string; file_id: number } | null>; problem: string | null; pending: boolean } {
  const mutation = trpc.server.uploadImage.useMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const upload = async (file: File | null) => {
    if (!file) return null;
    setProblem(null);
    if (!imageTypes.includes(file.type)) {
      setProblem(t.imageType);
      return null;
    }
    if (file.size > imageMaxBytes) {
      setProblem(t.imageTooLarge);
      return null;
    }
    try {
      return await mutation.mutateAsync({ name: file.name, type: file.type, data: await base64Of(file) });
    } catch (err) {
      setProblem(errorText(err));
      return null;
    }
  };
  return { upload, problem, pending: mutation.isPending };
}

/**
 * A page's picture: uploaded like any image field, then put in
 * the page's HTML where the text ends, as an <img> of the stored file, for
 * the owner to move or caption in the text.
 */
export function ImageInsertButton({ onInsert, testId }: { onInsert: (html: string) => void; testId: string }) {
  const { upload, problem, pending } = useImageUpload();
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <FileButton
          onChange={(file) =>
            void upload(file).then((stored) => {
              if (stored) onInsert(`<p><img src="${stored.src}" alt="" /></p>`);
            })
          }
          accept={imageTypes.join(',')}
        >
          {(props) => (
            <Button {...props} size="xs" variant="light" leftSection={<IconPhoto size={14} />} loading={pending} data-testid={`${testId}-insert-image`}>
              {t.imageInsert}
            </Button>
          )}
        </FileButton>
      </Group>
      {problem && (
        <Text size="xs" c="red">
          {problem}
        </Text>
      )}
    </Stack>
  );
}

/**
 * The console's one image field: drop or choose a picture, see
 * it, replace it or remove it. The file goes to the studio's file storage
 * (POST /api/files through the desk) and the field keeps its address.
 */
export function ImageField({
  label,
  value,
  onChange,
  error,
  testId,
  wide = true,
}: {
  label: string;
  value: string | null;
  onChange: (src: string | null, fileId: number | null) => void;
  error?: string | undefined;
  testId: string;
  /** Spans the whole row of a form's grid (the catalogue's two columns); false beside another field. */
  wide?: boolean;
}) {
  const { upload, problem, pending } = useImageUpload();
  // The window shows no other origin's pictures (its content-security policy): the desk reads the stored one for the preview.
  const preview = trpc.server.imagePreview.useQuery({ src: value ?? '' }, { enabled: Boolean(value) });
  const shown = value ? (preview.data ?? null) : null;
  const [over, setOver] = useState(false);
  const take = async (file: File | null) => {
    const stored = await upload(file);
    if (stored) onChange(stored.src, stored.file_id);
  };
  return (
    <Input.Wrapper label={label} error={error ?? problem} style={wide ? { gridColumn: '1 / -1' } : undefined}>
      <Group
        gap="md"
        p="sm"
        data-testid={`${testId}-image`}
        onDragOver={(ev) => {
          ev.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(ev) => {
          ev.preventDefault();
          setOver(false);
          void take(ev.dataTransfer.files[0] ?? null);
        }}
        style={{ border: `1px dashed var(--mantine-color-${over ? 'teal-6' : 'gray-4'})`, borderRadius: 'var(--mantine-radius-md)' }}
      >
        {shown ? (
          <Image src={shown} alt={label} h={72} w={96} fit="cover" radius="sm" data-testid={`${testId}-preview`} />
        ) : (
          <Center h={72} w={96} bg="gray.1" style={{ borderRadius: 'var(--mantine-radius-sm)' }}>
            <IconPhoto size={28} color="var(--mantine-color-gray-5)" />
          </Center>
        )}
        <Stack gap={4}>
          <Text size="sm" c="dimmed">
            {t.imageDrop}
          </Text>
          <Group gap="xs">
            <FileButton onChange={(file) => void take(file)} accept={imageTypes.join(',')}>
              {(props) => (
                <Button {...props} size="xs" variant="light" loading={pending} data-testid={`${testId}-choose`}>
                  {value ? t.imageReplace : t.imageChoose}
                </Button>
              )}
            </FileButton>
            {value && (
              <Button size="xs" variant="subtle" color="red" onClick={() => onChange(null, null)} data-testid={`${testId}-remove`}>
                {t.imageRemove}
              </Button>
            )}
          </Group>
        </Stack>
      </Group>
    </Input.Wrapper>
  );
}

/** The console's one date field: a calendar in Spanish (DatesProvider), the value a day 'YYYY-MM-DD'. */
export function DateField({
  label,
  value,
  onChange,
  error,
  required,
  testId,
  w,
}: {
  label: string;
  value: string | null;
  onChange: (day: string | null) => void;
  error?: string | undefined;
  required?: boolean | undefined;
  testId?: string | undefined;
  w?: StyleProp<CSSProperties['width']> | undefined;
}) {
  return (
    <DatePickerInput
      label={label}
      data-testid={testId}
      w={w}
      required={required}
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
