import { useState } from 'react';
import { Alert, Button, Center, Group, Modal, Rating, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { QRCodeSVG } from 'qrcode.react';
import { cancellationPolicyLines, cancellationWarning, formatAccessCode, formatDateTime, guestName, texts } from '@estudio/core';
import { trpc } from '../../../api/trpc.ts';
import { errorMessage } from '../../../api/errors.ts';
import { useAppConfig } from '../../../config/AppConfigContext.tsx';
import { showError, showSuccess } from '../../../ui/alerts.ts';
import { ClassSummary } from '../../../booking/ClassSummary.tsx';
import { useInvalidateBooking } from '../../../booking/reserve/invalidate.ts';
import { useStudioTimeZone } from '../../../booking/time.ts';
import { useSingleFlight } from '../../../booking/single-flight.ts';
import type { ReservationWithClass } from '../../../booking/types.ts';
import { accessCodeUrl } from '../../../booking/access-code-url.ts';

interface ModalProps {
  opened: boolean;
  onClose: () => void;
  reservation: ReservationWithClass;
}

const modalProps = { centered: true, closeButtonProps: { 'aria-label': texts.shell.close } } as const;

/** 'Cancelar Clase': the rule text, and the warning when the credit will not come back. */
export function CancelModal({ opened, onClose, reservation, creditReturned, unlimited }: ModalProps & { creditReturned: boolean; unlimited: boolean }) {
  const config = useAppConfig();
  const tz = useStudioTimeZone();
  const invalidate = useInvalidateBooking();
  const once = useSingleFlight();
  const cancel = trpc.reservations.cancel.useMutation();
  // One cancel per dialog: a double click sends one request and says one thing.
  const confirm = () =>
    once(async () => {
      try {
        await cancel.mutateAsync({ id: reservation.class_reservation_id });
        showSuccess(texts.booking.reservationCancelled);
        onClose();
      } catch (error) {
        showError(errorMessage(error));
      }
      await invalidate();
    });
  const sc = reservation.single_class;
  return (
    <Modal opened={opened} onClose={onClose} title={texts.reservations.cancelTitle} {...modalProps}>
      <Stack gap="md">
        <Text>{texts.reservations.cancelConfirm(sc.class_type.name, formatDateTime(sc.class_date, tz))}</Text>
        <Text size="sm" c="dimmed">
          {cancellationPolicyLines(config, { unlimited }).join(' ')}
        </Text>
        {!creditReturned && (
          <Alert color="orange" variant="light" icon={<IconAlertTriangle size={20} />}>
            {cancellationWarning(config)}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={onClose}>
            {texts.reservations.back}
          </Button>
          <Button color="red" onClick={() => void confirm()} loading={cancel.isPending} disabled={cancel.isSuccess}>
            {texts.reservations.cancelButton}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function StarPicker({ label, name, value, onChange }: { label: string; name: string; value: number; onChange: (value: number) => void }) {
  return (
    <Stack gap={4} role="group" aria-label={label}>
      <Text fw={600} size="sm">
        {label}
      </Text>
      <Rating name={name} value={value} onChange={onChange} size="xl" count={5} getSymbolLabel={(n) => texts.reservations.starsLabel(n)} />
    </Stack>
  );
}

/**
 * 'Calificar Clase': class and coach, 1 to 5 stars each. The comment and the
 * Cancelar / Calificar buttons appear once the coach has a rating (spec §5).
 */
export function RatingModal({ opened, onClose, reservation }: ModalProps) {
  const invalidate = useInvalidateBooking();
  const [classStars, setClassStars] = useState(0);
  const [coachStars, setCoachStars] = useState(0);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string>();
  const rate = trpc.reservations.rate.useMutation({
    onSuccess: async () => {
      showSuccess(texts.reservations.rateSaved);
      onClose();
      await invalidate();
    },
    onError: (failure) => showError(errorMessage(failure)),
  });
  const submit = () => {
    if (classStars < 1 || coachStars < 1) return setError(texts.reservations.rateRequired);
    setError(undefined);
    rate.mutate({ id: reservation.class_reservation_id, class_stars: classStars, coach_stars: coachStars, comment: comment.trim() || null });
  };
  return (
    <Modal opened={opened} onClose={onClose} title={texts.reservations.rateTitle} {...modalProps}>
      <Stack gap="lg">
        <ClassSummary singleClass={reservation.single_class} />
        <StarPicker label={texts.reservations.rateClassLabel} name="class_stars" value={classStars} onChange={setClassStars} />
        <StarPicker label={texts.reservations.rateCoachLabel} name="coach_stars" value={coachStars} onChange={setCoachStars} />
        {error && (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
        {coachStars > 0 && (
          <>
            <Textarea
              label={texts.reservations.rateComment}
              placeholder={texts.reservations.rateCommentPlaceholder}
              autosize
              minRows={3}
              maxLength={2000}
              value={comment}
              onChange={(e) => setComment(e.currentTarget.value)}
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose}>
                {texts.reservations.rateCancel}
              </Button>
              <Button onClick={submit} loading={rate.isPending}>
                {texts.reservations.rateButton}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}

/** 'Código de Acceso': a QR of the admin reservation link, scanned at the front desk. */
export function AccessCodeModal({ opened, onClose, reservation }: ModalProps) {
  const url = accessCodeUrl(reservation.class_reservation_id, reservation.access_code);
  return (
    <Modal opened={opened} onClose={onClose} title={texts.reservations.accessCodeTitle} {...modalProps}>
      <Stack gap="md" align="stretch">
        <ClassSummary singleClass={reservation.single_class} />
        <Center py="sm">
          <QRCodeSVG value={url} size={224} level="M" marginSize={2} title={texts.reservations.folio(reservation.class_reservation_id)} role="img" aria-label={texts.reservations.accessCodeTitle} data-value={url} />
        </Center>
        <Text size="sm" c="dimmed" ta="center">
          {texts.reservations.accessCodeText}
        </Text>
        <Text ta="center" fz={28} fw={700} ff="monospace" lts={2} data-testid="access-code-text">
          {formatAccessCode(reservation.access_code)}
        </Text>
        <Text size="xs" c="dimmed" ta="center">
          {texts.reservations.folio(reservation.class_reservation_id)}
        </Text>
      </Stack>
    </Modal>
  );
}

/** Renames the guest of a reservation ('Nombre actualizado.'). */
export function GuestModal({ opened, onClose, reservation }: ModalProps) {
  const invalidate = useInvalidateBooking();
  const [name, setName] = useState(reservation.guest ?? '');
  const [error, setError] = useState<string>();
  const save = trpc.schedule.updateGuest.useMutation({
    onSuccess: async () => {
      showSuccess(texts.booking.guestNameUpdated);
      onClose();
      await invalidate();
    },
    onError: (failure) => showError(errorMessage(failure)),
  });
  const submit = () => {
    const parsed = guestName.safeParse(name);
    if (!parsed.success) return setError(texts.booking.guestNameRequired);
    setError(undefined);
    save.mutate({ class_reservation_id: reservation.class_reservation_id, name: parsed.data });
  };
  return (
    <Modal opened={opened} onClose={onClose} title={texts.reservations.editGuest} {...modalProps}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        noValidate
      >
        <Stack gap="md">
          <TextInput label={texts.reservations.guestNameLabel} value={name} maxLength={80} onChange={(e) => setName(e.currentTarget.value)} error={error} data-autofocus />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {texts.reservations.back}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {texts.reservations.save}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
