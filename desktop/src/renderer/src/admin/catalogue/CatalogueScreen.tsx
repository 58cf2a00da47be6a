import { Alert, Button, Center, Checkbox, Loader, Group, Modal, MultiSelect, NumberInput, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { texts, type RemovalVerdict, type z } from '@estudio/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { errorText } from '../../format.ts';
import { useSchemaForm } from '../form.ts';
import { DateField } from '../date-fields.tsx';
import { ConfirmModal, FormError } from '../form-feedback.tsx';
import { ImageField, ImageInsertButton } from '../image-fields.tsx';
import { ListTable, Loaded, RowActions, useSearch, type ListColumn } from '../list-widgets.tsx';
import { VideoUrlField } from '../videos/VideoFileField.tsx';

const t = texts.adminConsole;

export type FieldValue = string | number | boolean | null | string[];

export interface FieldSpec {
  key: string;
  label: string;
  /**
   * image: the upload-with-preview widget, the value the stored file's address;
   * imageFile: the same widget for a record that keeps the file's id (a coach's
   * photo, a notice's picture), its address in `<key>:src` for the preview;
   * date: the calendar, a day 'YYYY-MM-DD'; multiselect: several ids (a video's tags);
   * video: a video's link, or a video file uploaded in its place (decision 046).
   */
  kind: 'text' | 'textarea' | 'number' | 'checkbox' | 'select' | 'multiselect' | 'image' | 'imageFile' | 'date' | 'video';
  required?: boolean;
  /** select, multiselect: the choices (ids as strings). */
  options?: { value: string; label: string }[];
  /** Required texts stay '' (the schema names them); optional texts and numbers go as null when empty (cleared). */
  optional?: boolean;
  /** Left out of the payload when empty (the server derives it, e.g. a category's handle). */
  omitEmpty?: boolean;
  /** textarea of HTML: a button uploads a picture and adds it to the text (a page's pictures). */
  images?: boolean;
  /** A line under a text field's label, or a checkbox's (what it is for). */
  description?: string;
  /** Only when editing a record (a choice about a change, such as publishing a page's new version). */
  editOnly?: boolean;
}

/** Form values → the route's payload: '' → null for optional fields, numbers as numbers, select ids as numbers. */
function toPayload(fields: FieldSpec[], values: Record<string, FieldValue>): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values[f.key];
    const empty = v === '' || v === null;
    if (f.omitEmpty && empty) continue;
    // An empty optional field is cleared; an empty required number is left out, for the schema to name.
    const cleared = empty && f.optional ? null : undefined;
    if (f.kind === 'checkbox') payload[f.key] = Boolean(v);
    else if (f.kind === 'number') payload[f.key] = empty ? cleared : Number(v);
    else if (f.kind === 'multiselect') payload[f.key] = Array.isArray(v) ? v.map(Number) : [];
    else if (f.kind === 'select' || f.kind === 'imageFile') payload[f.key] = empty ? null : Number(v);
    else payload[f.key] = empty && f.optional ? null : (v ?? '');
  }
  return payload;
}

interface CatalogueProps<Row, C extends z.ZodType, U extends z.ZodType> {
  rows: Row[] | undefined;
  query: { isPending: boolean; error: unknown };
  rowId: (row: Row) => number;
  rowTitle: (row: Row) => string;
  /** The text the search box looks in (these lists are short and come whole from the server). */
  searchText: (row: Row) => string;
  columns: ListColumn<Row>[];
  fields: FieldSpec[];
  blank: Record<string, FieldValue>;
  toValues: (row: Row) => Record<string, FieldValue>;
  /** When the list carries only a summary: reads the whole record before editing it, so nothing unseen is overwritten. */
  loadValues?: (row: Row) => Promise<Record<string, FieldValue>>;
  createSchema: C;
  updateSchema: U;
  /** The update payload's id key ('location_id', 'id'...). */
  idKey: string;
  create: (input: z.output<C>) => Promise<unknown>;
  update: (input: z.output<U>) => Promise<unknown>;
  remove: (id: number) => Promise<unknown>;
  /** What deleting the row would do and why (the server's own verdict, decision 035), shown before the admin confirms. */
  removal?: (id: number) => Promise<RemovalVerdict>;
  savedMessage?: string;
  deletedMessage?: string;
  testId: string;
}

/**
 * The catalogue's screens (locations, class types, categories, coaches,
 * notices, pages): a list, a form checked with the route's own core schema
 * (the server's refusals by field), and delete with a confirmation.
 */
export function CatalogueScreen<Row, C extends z.ZodType, U extends z.ZodType>(props: CatalogueProps<Row, C, U>) {
  const search = useSearch();
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const [removing, setRemoving] = useState<Row | null>(null);
  const [removeError, setRemoveError] = useState<unknown>(null);
  const [verdict, setVerdict] = useState<RemovalVerdict | 'loading' | null>(null);
  const [busy, setBusy] = useState(false);
  const rows = useMemo(() => {
    const q = search.debounced.toLowerCase();
    return (props.rows ?? []).filter((r) => !q || props.searchText(r).toLowerCase().includes(q));
  }, [props, search.debounced]);

  const confirmRemove = async () => {
    if (!removing) return;
    setBusy(true);
    try {
      await props.remove(props.rowId(removing));
      notifications.show({ color: 'teal', message: props.deletedMessage ?? t.deleted });
      setRemoving(null);
    } catch (error) {
      setRemoveError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Group justify="space-between">
        {search.input}
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')} data-testid={`${props.testId}-new`}>
          {t.add}
        </Button>
      </Group>
      <Loaded query={props.query}>
        {() => (
          <>
            <ListTable
              testId={`${props.testId}-table`}
              rows={rows}
              rowKey={props.rowId}
              columns={props.columns}
              rowProps={() => ({ 'data-testid': `${props.testId}-row` })}
              actions={(row) => (
                <RowActions
                  end
                  name={props.rowTitle(row)}
                  onEdit={() => setEditing(row)}
                  onDelete={() => {
                    setRemoveError(null);
                    setRemoving(row);
                    if (!props.removal) return;
                    setVerdict('loading');
                    props.removal(props.rowId(row)).then(setVerdict, (error: unknown) => {
                      setVerdict(null);
                      setRemoveError(error);
                    });
                  }}
                />
              )}
            />
          </>
        )}
      </Loaded>
      {editing && <CatalogueEditor {...props} row={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmModal
        opened={removing !== null}
        title={`${t.delete} “${removing ? props.rowTitle(removing) : ''}”`}
        confirmLabel={verdict === 'loading' || verdict?.outcome === 'refuse' ? null : verdict?.outcome === 'archive' ? t.archive : t.delete}
        onConfirm={() => void confirmRemove()}
        onClose={() => {
          setRemoving(null);
          setVerdict(null);
        }}
        loading={busy}
        error={removeError}
      >
        <RemovalText verdict={props.removal ? verdict : { outcome: 'delete', message: t.cannotUndo }} />
      </ConfirmModal>
    </>
  );
}

/** The verdict in the delete dialog: a refusal in orange (nothing will change), otherwise what will happen. */
function RemovalText({ verdict }: { verdict: RemovalVerdict | 'loading' | null }) {
  if (verdict === 'loading') return <Loader size="sm" />;
  if (!verdict) return null;
  if (verdict.outcome === 'refuse') {
    return (
      <Alert color="orange" data-testid="removal-verdict">
        {verdict.message}
      </Alert>
    );
  }
  return (
    <Text size="sm" data-testid="removal-verdict">
      {verdict.message}
    </Text>
  );
}

type EditorProps<Row, C extends z.ZodType, U extends z.ZodType> = CatalogueProps<Row, C, U> & { row: Row | null; onClose: () => void };

/** Reads the whole record first when the screen says the list has only a summary. */
function CatalogueEditor<Row, C extends z.ZodType, U extends z.ZodType>(props: EditorProps<Row, C, U>) {
  const { row, loadValues } = props;
  const [loaded, setLoaded] = useState<{ values: Record<string, FieldValue> } | { error: unknown } | null>(null);
  useEffect(() => {
    if (!row || !loadValues) return;
    let live = true;
    loadValues(row).then(
      (values) => live && setLoaded({ values }),
      (error: unknown) => live && setLoaded({ error }),
    );
    return () => {
      live = false;
    };
  }, [row, loadValues]);
  if (!row) return <CatalogueForm {...props} initial={props.blank} />;
  if (!loadValues) return <CatalogueForm {...props} initial={props.toValues(row)} />;
  if (loaded && 'values' in loaded) return <CatalogueForm {...props} initial={loaded.values} />;
  return (
    <Modal opened onClose={props.onClose} title={`${t.edit}: ${props.rowTitle(row)}`} centered>
      {loaded && 'error' in loaded ? (
        <FormError message={errorText(loaded.error)} />
      ) : (
        <Center py="lg">
          <Loader />
        </Center>
      )}
    </Modal>
  );
}

function CatalogueForm<Row, C extends z.ZodType, U extends z.ZodType>(props: EditorProps<Row, C, U> & { initial: Record<string, FieldValue> }) {
  const { row } = props;
  const fields = props.fields.filter((f) => row || !f.editOnly);
  const form = useSchemaForm<Record<string, FieldValue>>(props.initial);
  const [saving, setSaving] = useState(false);
  const v = form.values;
  const e = form.errors;
  // An upload ends after the owner may have typed on: what it adds goes after the text as it is then.
  const latest = useRef(v);
  latest.current = v;

  const submit = async () => {
    const payload = toPayload(fields, v);
    setSaving(true);
    try {
      if (row) {
        const input = form.validate(props.updateSchema, { [props.idKey]: props.rowId(row), ...payload });
        if (!input) return;
        await props.update(input);
      } else {
        const input = form.validate(props.createSchema, payload);
        if (!input) return;
        await props.create(input);
      }
      notifications.show({ color: 'teal', message: props.savedMessage ?? t.saved });
      props.onClose();
    } catch (error) {
      form.serverError(error);
    } finally {
      setSaving(false);
    }
  };

  const input = (f: FieldSpec) => {
    const value = v[f.key];
    switch (f.kind) {
      case 'image':
        return <ImageField key={f.key} label={f.label} value={typeof value === 'string' && value ? value : null} onChange={(src) => form.set(f.key, src ?? '')} error={e[f.key]} testId={`${props.testId}-${f.key}`} />;
      case 'video':
        return <VideoUrlField key={f.key} label={f.label} required={f.required} value={typeof value === 'string' ? value : ''} onChange={(url) => form.set(f.key, url)} error={e[f.key]} testId={props.testId} />;
      case 'multiselect':
        return (
          <MultiSelect
            key={f.key}
            label={f.label}
            data={f.options ?? []}
            value={Array.isArray(value) ? value : []}
            onChange={(x) => form.set(f.key, x)}
            error={e[f.key]}
            searchable
            style={{ gridColumn: '1 / -1' }}
          />
        );
      case 'imageFile': {
        const src = v[`${f.key}:src`];
        return (
          <ImageField
            key={f.key}
            label={f.label}
            value={typeof src === 'string' && src && value !== null && value !== '' ? src : null}
            onChange={(newSrc, fileId) => {
              form.set(`${f.key}:src`, newSrc ?? '');
              form.set(f.key, fileId);
            }}
            error={e[f.key]}
            testId={`${props.testId}-${f.key}`}
          />
        );
      }
      case 'date':
        return <DateField key={f.key} label={f.label} required={f.required} value={typeof value === 'string' && value ? value : null} onChange={(day) => form.set(f.key, day ?? '')} error={e[f.key]} />;
      case 'checkbox':
        return (
          <Checkbox
            key={f.key}
            label={f.label}
            description={f.description}
            checked={Boolean(value)}
            onChange={(ev) => form.set(f.key, ev.currentTarget.checked)}
            error={e[f.key]}
            mt="md"
            data-testid={`${props.testId}-${f.key}`}
          />
        );
      case 'number':
        return (
          <NumberInput
            key={f.key}
            label={f.label}
            required={f.required}
            value={typeof value === 'number' || typeof value === 'string' ? value : ''}
            onChange={(x) => form.set(f.key, x)}
            error={e[f.key]}
            allowDecimal={false}
          />
        );
      case 'select':
        return (
          <Select
            key={f.key}
            label={f.label}
            required={f.required}
            clearable={!f.required}
            data={f.options ?? []}
            value={value === null || value === '' ? null : String(value)}
            onChange={(x) => form.set(f.key, x)}
            error={e[f.key]}
          />
        );
      case 'textarea': {
        const text = typeof value === 'string' ? value : '';
        return (
          <Stack key={f.key} gap={6} style={{ gridColumn: '1 / -1' }}>
            <Textarea label={f.label} required={f.required} autosize minRows={3} maxRows={14} value={text} onChange={(ev) => form.set(f.key, ev.currentTarget.value)} error={e[f.key]} />
            {f.images && <ImageInsertButton testId={`${props.testId}-${f.key}`} onInsert={(html) => {
                  const now = String(latest.current[f.key] ?? '').trimEnd();
                  form.set(f.key, now ? `${now}\n${html}` : html);
                }} />}
          </Stack>
        );
      }
      default:
        return (
          <TextInput
            key={f.key}
            label={f.label}
            description={f.description}
            required={f.required}
            value={typeof value === 'string' ? value : value === null ? '' : String(value)}
            onChange={(ev) => form.set(f.key, ev.currentTarget.value)}
            error={e[f.key]}
          />
        );
    }
  };

  return (
    <Modal opened onClose={props.onClose} title={row ? `${t.edit}: ${props.rowTitle(row)}` : t.add} size="lg" centered>
      <Stack gap="sm" data-testid={`${props.testId}-form`}>
        <SimpleGrid cols={2}>{fields.map(input)}</SimpleGrid>
        <FormError message={form.formError} />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t.cancel}
          </Button>
          <Button onClick={() => void submit()} loading={saving} data-testid={`${props.testId}-save`}>
            {t.save}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** A yes/no cell. */
export const yesNo = (value: boolean) => (value ? t.yes : t.no);
