import { useState } from 'react';
import { Button, Checkbox, Modal, Skeleton, Stack, Switch, Text } from '@mantine/core';
import { isOn, texts } from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { errorMessage } from '../../api/errors.ts';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { showError, showSuccess } from '../../ui/alerts.ts';
import { ClassSummary } from '../ClassSummary.tsx';
import type { SingleClassOutput } from '../types.ts';
import { useInvalidateBooking } from './invalidate.ts';

/** '60 minutos', '2 horas': the studio's cut-off for booking from the waitlist. */
export function cutoffText(minutes: number): string {
  if (minutes % 60 !== 0 || minutes < 120) return `${minutes} minutos`;
  return `${minutes / 60} horas`;
}

/**
 * A full class: join its waitlist, or, when already on it, her place in line,
 * her choice to be booked automatically (where the studio books from its
 * waitlists, decision 088) and the way to leave.
 */
export function WaitlistModal({ opened, onClose, singleClass }: { opened: boolean; onClose: () => void; singleClass: SingleClassOutput }) {
  const config = useAppConfig();
  const invalidate = useInvalidateBooking();
  const utils = trpc.useUtils();
  const autoPromote = isOn(config.waitlist_auto_promote);
  const cutoff = cutoffText(Math.max(0, Number(config.waitlist_promotion_cutoff_minutes) || 0));
  const [autoBook, setAutoBook] = useState(false);
  const onError = (error: unknown) => showError(errorMessage(error));
  const done = (message: string) => async () => {
    showSuccess(message);
    onClose();
    await invalidate();
  };
  const join = trpc.waitlist.create.useMutation({ onSuccess: done(texts.booking.waitlistJoined), onError });
  const leave = trpc.waitlist.remove.useMutation({ onSuccess: done(texts.booking.waitlistLeft), onError });
  const waitlistId = singleClass.waitlist_id;
  const entry = trpc.waitlist.byId.useQuery({ id: waitlistId ?? 0 }, { enabled: waitlistId != null, retry: false });
  const choose = trpc.waitlist.update.useMutation({
    onSuccess: (answer) => {
      utils.waitlist.byId.setData({ id: answer.waitlist.waitlist_id }, answer);
      void utils.waitlist.list.invalidate();
      showSuccess(texts.waitlists.autoBookSaved(answer.waitlist.auto_book));
    },
    onError,
  });

  return (
    <Modal opened={opened} onClose={onClose} title={texts.booking.waitlistTitle} centered closeButtonProps={{ 'aria-label': texts.shell.close }}>
      <Stack gap="lg">
        <ClassSummary singleClass={singleClass} details />
        <Text size="sm">{waitlistId != null ? texts.booking.waitlistJoinedText : texts.booking.waitlistText}</Text>
        {waitlistId != null ? (
          <>
            {entry.data ? (
              <Text fw={700} data-testid="waitlist-position">
                {texts.waitlists.position(entry.data.waitlist.position, entry.data.waitlist.waiting)}
              </Text>
            ) : (
              <Skeleton h={20} w="70%" />
            )}
            {autoPromote && entry.data && (
              <Switch
                checked={entry.data.waitlist.auto_book}
                disabled={choose.isPending}
                onChange={(e) => choose.mutate({ waitlist_id: waitlistId, auto_book: e.currentTarget.checked })}
                label={texts.waitlists.autoBook}
                description={texts.waitlists.autoBookHint(cutoff)}
              />
            )}
            <Button variant="light" color="red" fullWidth onClick={() => leave.mutate({ id: waitlistId })} loading={leave.isPending}>
              {texts.booking.leaveWaitlist}
            </Button>
          </>
        ) : (
          <>
            {autoPromote && (
              <Checkbox
                checked={autoBook}
                onChange={(e) => setAutoBook(e.currentTarget.checked)}
                label={texts.waitlists.autoBook}
                description={texts.waitlists.autoBookHint(cutoff)}
              />
            )}
            <Button
              fullWidth
              onClick={() => join.mutate({ single_class_id: singleClass.single_class_id, ...(autoPromote && autoBook ? { auto_book: true } : {}) })}
              loading={join.isPending}
            >
              {texts.booking.joinWaitlist}
            </Button>
          </>
        )}
      </Stack>
    </Modal>
  );
}
