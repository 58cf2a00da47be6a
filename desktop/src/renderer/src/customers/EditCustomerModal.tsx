import { Avatar, Button, FileButton, Group, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconCamera } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { notifications } from '@mantine/notifications';
import { customerSaveInput, texts } from '@estudio/core';
import { api } from '../admin/api.ts';
import { FormError } from '../admin/form-feedback.tsx';
import { useImageUpload } from '../admin/image-fields.tsx';
import { useSchemaForm } from '../admin/form.ts';
import { errorField } from '../admin/api.ts';
import { trpc, type DeskOutputs } from '../trpc.ts';
import { useStudioQuestions } from './StudioQuestions.tsx';

const t = texts.desk;
type Person = DeskOutputs['customers']['card']['customer'];

const textOrNull = (value: string) => (value.trim() ? value.trim() : null);

/**
 * Staff fix a customer's details at the counter (decision 107): name, phone,
 * Instagram, birth date, photo, the answers to the studio's questions
 * (emergency contact, injuries, with her consent for a health answer), and
 * the e-mail of a customer who has no password yet
 * (an administrator's for anyone; the replica does not know who has one, so
 * the server says it, naming the field). Saved on the server (PUT /customer,
 * in Actividad); the card shows it as soon as the replica has it.
 */
export function EditCustomerModal({ opened, onClose, customer, isAdmin }: { opened: boolean; onClose: () => void; customer: Person; isAdmin: boolean }) {
  const form = useSchemaForm({
    name: customer.name,
    last_name: customer.last_name,
    email: customer.email,
    phone: customer.phone ?? '',
    instagram: customer.instagram ?? '',
    birthdate: customer.birthdate ?? '',
  });
  const v = form.values;
  const questions = useStudioQuestions(customer.customer_id, { ...customer, ...v });
  // A new photo: uploaded to the studio's files when picked (or taken with the counter's camera), saved with the form.
  const photo = trpc.customers.photo.useQuery({ customer_id: customer.customer_id }, { staleTime: Infinity });
  const { upload, problem: photoProblem, pending: uploading } = useImageUpload();
  const [newPhoto, setNewPhoto] = useState<{ file_id: number; preview: string } | null>(null);
  useEffect(() => () => (newPhoto ? URL.revokeObjectURL(newPhoto.preview) : undefined), [newPhoto]);
  const pickPhoto = async (file: File | null) => {
    const stored = await upload(file);
    if (stored && file) setNewPhoto({ file_id: stored.file_id, preview: URL.createObjectURL(file) });
  };
  const utils = trpc.useUtils();
  const serverUtils = api.useUtils();
  const save = api.customer.update.useMutation({
    onSuccess: async () => {
      notifications.show({ color: 'teal', message: t.editCustomerSaved });
      onClose();
      // The replica hears of the change through the sync; the card and its warnings read again once it has.
      await Promise.all([serverUtils.customer.invalidate(), utils.customers.invalidate()]);
    },
    onError: (error) => {
      const field = errorField(error);
      if (!field || !questions.showRefusal(field, error.message)) form.serverError(error);
    },
  });
  const submit = () => {
    const answers = questions.collect();
    const emailChanged = v.email.trim().toLowerCase() !== customer.email.toLowerCase();
    const input = form.validate(customerSaveInput, {
      customer_id: customer.customer_id,
      name: v.name,
      last_name: v.last_name,
      ...(emailChanged ? { email: v.email.trim() } : {}),
      ...(v.phone.trim() ? { phone: v.phone.trim() } : {}),
      instagram: textOrNull(v.instagram),
      birthdate: textOrNull(v.birthdate),
      ...(newPhoto ? { file_id: newPhoto.file_id } : {}),
      ...answers,
    });
    if (input && answers) save.mutate(input);
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t.editCustomerTitle(`${customer.name} ${customer.last_name}`.trim())} size="lg" centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm" data-testid="desk-customer-edit">
          <Group gap="md" wrap="nowrap">
            <Avatar src={newPhoto?.preview ?? photo.data ?? null} size={72} radius="md" color="teal" data-testid="desk-edit-photo" data-photo={newPhoto ? 'new' : photo.data ? 'yes' : 'no'}>
              {`${customer.name.charAt(0)}${customer.last_name.charAt(0)}`.toUpperCase()}
            </Avatar>
            <Stack gap={4}>
              <FileButton onChange={(file) => void pickPhoto(file)} accept="image/jpeg,image/png,image/webp" inputProps={{ capture: 'user', 'aria-label': t.editPhoto } as object}>
                {(props) => (
                  <Button {...props} size="xs" variant="light" leftSection={<IconCamera size={14} />} loading={uploading}>
                    {photo.data || newPhoto ? t.editPhotoChange : t.editPhoto}
                  </Button>
                )}
              </FileButton>
              <Text size="xs" c={photoProblem ? 'red' : 'dimmed'} role={photoProblem ? 'alert' : undefined}>
                {photoProblem ?? (newPhoto ? t.editPhotoPending : t.editPhotoHint)}
              </Text>
            </Stack>
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Nombre" value={v.name} onChange={(e) => form.set('name', e.currentTarget.value)} error={form.errors.name} />
            <TextInput label="Apellidos" value={v.last_name} onChange={(e) => form.set('last_name', e.currentTarget.value)} error={form.errors.last_name} />
            <TextInput label="Teléfono" value={v.phone} onChange={(e) => form.set('phone', e.currentTarget.value)} error={form.errors.phone} inputMode="tel" />
            <TextInput
              label="Correo electrónico"
              type="email"
              value={v.email}
              onChange={(e) => form.set('email', e.currentTarget.value)}
              error={form.errors.email}
              description={isAdmin ? undefined : t.editEmailWalkIn}
            />
            {/* Typed at the counter (the customer says it): the browser's own date field, no calendar to page through decades. */}
            <TextInput label="Fecha de nacimiento" type="date" value={v.birthdate} onChange={(e) => form.set('birthdate', e.currentTarget.value)} error={form.errors.birthdate} data-testid="desk-edit-birthdate" />
            <TextInput label="Instagram" value={v.instagram} onChange={(e) => form.set('instagram', e.currentTarget.value)} error={form.errors.instagram} />
          </SimpleGrid>
          {questions.node}
          <FormError message={form.formError} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t.editCancel}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t.editSave}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
