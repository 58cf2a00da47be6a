import { Button, Modal, Stack, Text } from '@mantine/core';
import { texts } from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { errorMessage } from '../../api/errors.ts';
import { showError, showSuccess } from '../../ui/alerts.ts';
import { ClassSummary } from '../ClassSummary.tsx';
import type { SingleClassOutput } from '../types.ts';
import { useInvalidateBooking } from './invalidate.ts';

/** A full class: join its waitlist, or leave it when already on it. */
export function WaitlistModal({ opened, onClose, singleClass }: { opened: boolean; onClose: () => void; singleClass: SingleClassOutput }) {
  const invalidate = useInvalidateBooking();
  const onError = (error: unknown) => showError(errorMessage(error));
  const done = (message: string) => async () => {
    showSuccess(message);
    onClose();
    await invalidate();
  };
  const join = trpc.waitlist.create.useMutation({ onSuccess: done(texts.booking.waitlistJoined), onError });
  const leave = trpc.waitlist.remove.useMutation({ onSuccess: done(texts.booking.waitlistLeft), onError });
  const waitlistId = singleClass.waitlist_id;

  return (
    <Modal opened={opened} onClose={onClose} title={texts.booking.waitlistTitle} centered closeButtonProps={{ 'aria-label': texts.shell.close }}>
      <Stack gap="lg">
        <ClassSummary singleClass={singleClass} />
        <Text size="sm">{waitlistId != null ? texts.booking.waitlistJoinedText : texts.booking.waitlistText}</Text>
        {waitlistId != null ? (
          <Button variant="light" color="red" fullWidth onClick={() => leave.mutate({ id: waitlistId })} loading={leave.isPending}>
            {texts.booking.leaveWaitlist}
          </Button>
        ) : (
          <Button fullWidth onClick={() => join.mutate({ single_class_id: singleClass.single_class_id })} loading={join.isPending}>
            {texts.booking.joinWaitlist}
          </Button>
        )}
      </Stack>
    </Modal>
  );
}
