import { useMemo, useState } from 'react';
import { Avatar, Button, FileButton, Grid, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconCamera, IconPencil } from '@tabler/icons-react';
import { customerUpdateInput, formatCalendarDate, isFieldShown, sortFields, texts, validateForm, type FormValues } from '@estudio/core';
import { trpc } from '../../../api/trpc.ts';
import { errorMessage } from '../../../api/errors.ts';
import { useSession, type Customer } from '../../../session/SessionProvider.tsx';
import { showError, showSuccess } from '../../../ui/alerts.ts';
import { maxLengthsOf, useFormErrors } from '../../../ui/form-errors.ts';
import { DynamicField, type RenderableField } from './DynamicField.tsx';
import { uploadFile, UploadError } from './upload.ts';

/** Keys of the customer row that the profile save accepts (the image has its own control). */
const saveableKeys = new Set(Object.keys(customerUpdateInput.shape).filter((key) => key !== 'file_id' && key !== 'address_id'));
const maxLengths: Partial<Record<string, number>> = maxLengthsOf(customerUpdateInput.shape);

/** Used when the studio has no form for the customer object: the sign-up's own fields. */
const defaultFields: RenderableField[] = [
  { key: 'name', label: texts.forms.name, type: 'text', required: true, step: 0, order: 0 },
  { key: 'last_name', label: texts.forms.lastName, type: 'text', required: true, step: 0, order: 1 },
  { key: 'phone', label: texts.forms.phone, type: 'phone', required: true, step: 0, order: 2 },
  { key: 'birthdate', label: texts.forms.birthdate, type: 'date', required: true, step: 0, order: 3 },
  { key: 'instagram', label: texts.forms.instagram, type: 'text', required: false, step: 1, order: 0 },
  {
    key: 'signup_reason',
    label: texts.forms.signupReason,
    type: 'select',
    required: false,
    step: 1,
    order: 1,
    options: texts.forms.signupReasonOptions.map((value) => ({ label: value, value })),
  },
  {
    key: 'signup_reason_other',
    label: texts.forms.signupReasonOther,
    type: 'text',
    required: false,
    step: 1,
    order: 2,
    precondition: { key: 'signup_reason', value: texts.forms.signupReasonOtherValue },
  },
];

/**
 * The customer's fields: the studio's form for the customer object, plus its
 * custom fields, limited to what a profile save stores.
 */
function useProfileFields(): { fields: RenderableField[]; loading: boolean } {
  const forms = trpc.forms.list.useQuery(undefined, { staleTime: 5 * 60_000 });
  const custom = trpc.customFields.list.useQuery({ object: 'customer' }, { staleTime: 5 * 60_000 });
  const fields = useMemo(() => {
    const form = forms.data?.forms.find((f) => f.object === 'customer');
    // The API's precondition types `value` as optional (z.unknown()); the validator wants it present.
    type ApiField = Omit<RenderableField, 'precondition'> & { precondition?: { key: string; value?: unknown } | null };
    const toField = (f: ApiField): RenderableField => ({
      key: f.key,
      label: f.label,
      type: f.type,
      required: f.required,
      step: f.step,
      order: f.order,
      options: f.options ?? null,
      precondition: f.precondition ? { key: f.precondition.key, value: f.precondition.value } : null,
    });
    const base = form ? form.form_fields.filter((f) => saveableKeys.has(f.key)).map(toField) : defaultFields;
    const known = new Set(base.map((f) => f.key));
    const extra = (custom.data?.custom_fields ?? []).filter((f) => saveableKeys.has(f.key) && !known.has(f.key)).map((f, i) => ({ ...toField(f), step: 99, order: i }));
    return sortFields([...base, ...extra]);
  }, [forms.data, custom.data]);
  return { fields, loading: forms.isPending || custom.isPending };
}

/** Spec: dates read DD MMM YYYY ('21 sep 1993'). */
const formatBirthdate = (value: string | null): string | null => (value ? formatCalendarDate(value) : null);

/** Each field's label as the edit form shows it (the studio's form, else the sign-up's words), without '(Opcional)'. */
function labelsOf(fields: readonly RenderableField[]): Record<string, string> {
  return Object.fromEntries(fields.map((field) => [field.key, (field.label ?? field.name ?? field.key).trim()]));
}

function ViewRow({ label, value, empty }: { label: string; value: string | null | undefined; empty?: string }) {
  return (
    <div>
      <Text size="sm" fw={700} c="dimmed">
        {label}
      </Text>
      {value ? <Text>{value}</Text> : <Text c="dimmed">{empty ?? texts.profile.notSet}</Text>}
    </div>
  );
}

function ProfilePhoto({ customer }: { customer: Customer }) {
  const { store } = useSession();
  const utils = trpc.useUtils();
  const file = trpc.files.byId.useQuery({ id: customer.file_id ?? 0 }, { enabled: Boolean(customer.file_id), staleTime: Infinity, retry: false });
  const [uploading, setUploading] = useState(false);
  const update = trpc.customer.update.useMutation();

  const choose = async (picked: File | null) => {
    if (!picked) return;
    setUploading(true);
    try {
      const uploaded = await uploadFile(store, picked, 'image');
      const answer = await update.mutateAsync({ file_id: uploaded.file_id });
      utils.files.byId.setData({ id: uploaded.file_id }, { file: uploaded.file });
      utils.customer.me.setData(undefined, answer);
      showSuccess(texts.profile.photoSaved);
    } catch (error) {
      showError(error instanceof UploadError ? error.message : errorMessage(error));
    } finally {
      setUploading(false);
    }
  };

  const initials = [customer.name, customer.last_name].map((part) => part.trim().charAt(0).toUpperCase()).join('');
  return (
    <Stack align="center" gap="sm">
      <Avatar src={file.data?.file.src ?? null} alt={texts.profile.photo} size={120} radius={120} color="brand">
        {initials}
      </Avatar>
      <FileButton onChange={(picked) => void choose(picked)} accept="image/*">
        {(props) => (
          <Button {...props} variant="light" size="xs" leftSection={<IconCamera size={16} />} loading={uploading}>
            {texts.profile.changePhoto}
          </Button>
        )}
      </FileButton>
    </Stack>
  );
}

function valuesOf(customer: Customer): Record<string, unknown> {
  return Object.fromEntries([...saveableKeys].map((key) => [key, (customer as Record<string, unknown>)[key] ?? '']));
}

/** Mi Información's profile: view mode, then edit mode with save or cancel. */
export function PersonalCard({ customer }: { customer: Customer }) {
  const utils = trpc.useUtils();
  const { fields, loading } = useProfileFields();
  const [editing, setEditing] = useState(false);
  const [values, setValues] = useState<Record<string, unknown>>(() => valuesOf(customer));
  const labels = useMemo(() => ({ ...labelsOf(defaultFields), ...labelsOf(fields) }), [fields]);
  const { errors, fail, failFromServer, clear, reset } = useFormErrors(labels);
  const save = trpc.customer.update.useMutation({
    onSuccess: (answer) => {
      utils.customer.me.setData(undefined, answer);
      // The phone may have changed: Mensajes shows where WhatsApp goes.
      void utils.messages.preferences.invalidate();
      showSuccess(texts.profile.updated);
      setEditing(false);
    },
    onError: failFromServer,
  });

  const startEditing = () => {
    setValues(valuesOf(customer));
    reset();
    setEditing(true);
  };

  const submit = () => {
    const shown = fields.filter((f) => isFieldShown(f, values as FormValues));
    const result = validateForm(shown, values);
    const input: Record<string, unknown> = {};
    for (const field of shown) {
      const value = values[field.key];
      input[field.key] = typeof value === 'string' ? value.trim() || null : (value ?? null);
    }
    // Name and last name are never cleared; the other fields may be.
    for (const key of ['name', 'last_name', 'phone']) if (input[key] === null) delete input[key];
    if (values.signup_reason !== texts.forms.signupReasonOtherValue && fields.some((f) => f.key === 'signup_reason_other')) input.signup_reason_other = null;
    const parsed = customerUpdateInput.safeParse(input);
    const schemaErrors: Record<string, string> = {};
    if (!parsed.success) for (const issue of parsed.error.issues) schemaErrors[String(issue.path[0])] ??= issue.message;
    // One message per field: the form's rule first ('Debes llenar este campo.'), else the schema's.
    if (fail({ ...schemaErrors, ...result.errors }) || !parsed.success) return;
    save.mutate(parsed.data);
  };

  const reason =
    customer.signup_reason === texts.forms.signupReasonOtherValue && customer.signup_reason_other
      ? `${customer.signup_reason}: ${customer.signup_reason_other}`
      : customer.signup_reason;

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
      <Group justify="space-between" mb="lg">
        <Title order={2} fz="xl">
          {texts.profile.personalHeading}
        </Title>
        {!editing && (
          <Button variant="light" leftSection={<IconPencil size={16} />} onClick={startEditing} disabled={loading}>
            {texts.profile.edit}
          </Button>
        )}
      </Group>
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, sm: 4 }}>
          <ProfilePhoto customer={customer} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 8 }}>
        {editing ? (
          <Stack gap="sm" component="form" onSubmit={(e) => { e.preventDefault(); submit(); }} aria-label={texts.profile.personalHeading}>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              {fields
                .filter((f) => isFieldShown(f, values as FormValues))
                .map((field) => (
                  <DynamicField
                    key={field.key}
                    field={field}
                    value={values[field.key]}
                    error={errors[field.key]}
                    maxLength={maxLengths[field.key]}
                    onChange={(value) => {
                      setValues((current) => ({ ...current, [field.key]: value }));
                      clear(field.key);
                    }}
                  />
                ))}
            </SimpleGrid>
            <Group justify="flex-end" mt="sm">
              <Button variant="default" onClick={() => setEditing(false)} disabled={save.isPending}>
                {texts.profile.cancel}
              </Button>
              <Button type="submit" loading={save.isPending}>
                {texts.profile.save}
              </Button>
            </Group>
          </Stack>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <ViewRow label={labels.name ?? texts.forms.name} value={customer.name} />
            <ViewRow label={labels.last_name ?? texts.forms.lastName} value={customer.last_name} />
            <ViewRow label={labels.phone ?? texts.forms.phone} value={customer.phone} />
            <ViewRow label={labels.birthdate ?? texts.forms.birthdate} value={formatBirthdate(customer.birthdate)} empty={texts.profile.noBirthday} />
            <ViewRow label={labels.instagram ?? texts.forms.instagram} value={customer.instagram} />
            <ViewRow label={labels.signup_reason ?? texts.forms.signupReason} value={reason} />
          </SimpleGrid>
        )}
        </Grid.Col>
      </Grid>
    </Paper>
  );
}
