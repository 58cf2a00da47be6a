import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { activePenalty, classBookability, formatDateTime, isProfileComplete, isUnlimitedCredit, pickCredit, texts, type ClassBookability } from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { errorMessage } from '../../api/errors.ts';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { useSession } from '../../session/SessionProvider.tsx';
import { showError } from '../../ui/alerts.ts';
import { useFocusReturn } from '../../ui/useFocusReturn.ts';
import { useStudioTimeZone } from '../time.ts';
import type { PenaltyOutput, SingleClassOutput } from '../types.ts';

const loadReserveDialog = () => import('./ReserveDialog.tsx');
const ReserveDialog = lazy(loadReserveDialog);

/** Spec §9: a modal that replaces another opens 500 ms after the first closes. */
export const MODAL_REOPEN_DELAY_MS = 500;
/** Spec §9: after signing in from the login modal, the reservation resumes 1000 ms later. */
export const RESUME_AFTER_LOGIN_MS = 1000;

/** Why a card that is not a button cannot be booked, in the card's own words. */
function closedReason(view: ClassBookability, tz: string): string {
  switch (view.state) {
    case 'started':
      return texts.booking.cardStarted;
    case 'not-open':
      return view.opensAt ? texts.booking.cardNotOpen(formatDateTime(view.opensAt, tz)) : texts.booking.cardTooLate;
    case 'full-closed':
      return `${texts.booking.legendFull}, ${texts.booking.cardFullNoWaitlist.toLowerCase()}`;
    default:
      return texts.booking.cardTooLate;
  }
}

export type Dialog =
  | { kind: 'login' }
  | { kind: 'completeInfo'; singleClass: SingleClassOutput }
  | { kind: 'waitlist'; singleClass: SingleClassOutput }
  | { kind: 'booking'; singleClass: SingleClassOutput }
  | { kind: 'penalty'; penalty: PenaltyOutput }
  | { kind: 'packageOnly'; singleClass: SingleClassOutput }
  | { kind: 'noCredits' };

export interface ReserveFlow {
  /** Starts the spec's reserve flow for a class card. */
  start: (singleClass: SingleClassOutput) => void;
  /** The same for a class a link names: a class that can no longer be booked says why instead of doing nothing. */
  open: (singleClass: SingleClassOutput) => void;
  /** The class whose credits are being checked, for a spinner on its card. */
  busyClassId: number | null;
  modals: ReactNode;
}

/**
 * The reserve flow of spec §4, in its order: a package-only class the
 * caller has no access to offers its package; a visitor signs in first (and
 * the flow resumes); a full class offers its waitlist; credits or an
 * unlimited membership open the booking modal; an active penalty blocks; no
 * credits opens the exhausted-credits modal. Credits and penalties are read
 * with core's rules only to choose the modal: the server decides the booking.
 */
export function useReserveFlow(): ReserveFlow {
  const config = useAppConfig();
  const tz = useStudioTimeZone();
  const session = useSession();
  const utils = trpc.useUtils();
  const [dialog, setDialog] = useState<(Dialog & { seq: number }) | null>(null);
  const [opened, setOpened] = useState(false);
  const [busyClassId, setBusyClassId] = useState<number | null>(null);
  const [pendingClassId, setPendingClassId] = useState<number | null>(null);
  const openedRef = useRef(false);
  const seq = useRef(0);
  const reopenTimer = useRef<number | undefined>(undefined);
  // The card the flow started from gets the keyboard back when the last dialog closes.
  const focus = useFocusReturn();

  useEffect(() => () => window.clearTimeout(reopenTimer.current), []);

  const show = useCallback((next: Dialog) => {
    window.clearTimeout(reopenTimer.current);
    const open = () => {
      seq.current += 1;
      setDialog({ ...next, seq: seq.current });
      setOpened(true);
      openedRef.current = true;
    };
    if (openedRef.current) {
      setOpened(false);
      openedRef.current = false;
      reopenTimer.current = window.setTimeout(open, MODAL_REOPEN_DELAY_MS);
    } else open();
  }, []);

  const close = useCallback(() => {
    setOpened(false);
    openedRef.current = false;
    focus.closed(() => openedRef.current);
  }, [focus]);

  const decide = async (c: SingleClassOutput) => {
    void loadReserveDialog();
    // The card already said what it is (core's classBookability): closed cards are not buttons.
    const view = classBookability(c, { now: new Date(), config });
    if (!view.actionable) return;
    if (view.state === 'special') return show({ kind: 'packageOnly', singleClass: c });
    // A stored session still loading its customer (the calendar shows before it: decision 059): the flow resumes
    // with this class once it has, as after a sign-in.
    if (session.status === 'signingIn') return void setPendingClassId(c.single_class_id);
    if (session.status !== 'signedIn') {
      setPendingClassId(c.single_class_id);
      show({ kind: 'login' });
      return;
    }
    // Missing profile fields or the studio's questions still to answer (decision 087): asked first, then the class again.
    if (session.customer && (!isProfileComplete(session.customer) || (session.customer.pending_fields?.length ?? 0) > 0)) {
      return show({ kind: 'completeInfo', singleClass: c });
    }
    // The customer's own reservation: its seat and guest can be changed.
    if (view.state === 'reserved') return show({ kind: 'booking', singleClass: c });
    if (view.state === 'full' || view.state === 'waitlist') return show({ kind: 'waitlist', singleClass: c });

    setBusyClassId(c.single_class_id);
    try {
      const [credits, penalties] = await Promise.all([utils.credits.list.fetch(), utils.penalties.list.fetch({})]);
      const credit = pickCredit(credits.available_classes, { classTypeId: c.class_type_id, classDate: c.class_date, timeZone: tz });
      const penalty = activePenalty(penalties.class_reservation_penaltys, new Date());
      if (credit && !(penalty && isUnlimitedCredit(credit))) show({ kind: 'booking', singleClass: c });
      else if (penalty) show({ kind: 'penalty', penalty });
      else show({ kind: 'noCredits' });
    } catch (error) {
      showError(errorMessage(error));
    } finally {
      setBusyClassId(null);
    }
  };
  const decideRef = useRef(decide);
  decideRef.current = decide;

  // Resume after the login modal: the class is read again, now with the customer's own reservations.
  useEffect(() => {
    if (pendingClassId == null || session.status !== 'signedIn') return;
    const timer = window.setTimeout(() => {
      setPendingClassId(null);
      void utils.schedule.byId
        .fetch({ id: pendingClassId })
        .then((answer) => decideRef.current(answer.single_class))
        .catch((error: unknown) => showError(errorMessage(error)));
    }, RESUME_AFTER_LOGIN_MS);
    return () => window.clearTimeout(timer);
  }, [pendingClassId, session.status, utils]);

  const start = useCallback(
    (c: SingleClassOutput) => {
      // The card is found again by its class if the week was drawn anew meanwhile.
      focus.remember('data-class-id');
      void decideRef.current(c);
    },
    [focus],
  );
  const open = useCallback(
    (c: SingleClassOutput) => {
      const view = classBookability(c, { now: new Date(), config });
      if (c.cancelledAt) showError(texts.booking.linkedClassCancelled);
      else if (!view.actionable) showError(texts.booking.linkedClassClosed(c.class_type.name, closedReason(view, tz)));
      else void decideRef.current(c);
    },
    [config, tz],
  );

  const modals: ReactNode = dialog ? (
    // The dialogs' code (sign-in form, seat map, their validators) loads when a class is first tapped, not with the page.
    <Suspense fallback={null}>
      <ReserveDialog
        key={dialog.seq}
        dialog={dialog}
        opened={opened}
        onClose={close}
        onLoginCancelled={() => {
          setPendingClassId(null);
          close();
        }}
        onStaleBooking={(fresh) => show({ kind: 'booking', singleClass: fresh })}
        onResume={(c) => {
          close();
          // The session's customer was just replaced by the save's answer: the next render's flow reads it.
          window.setTimeout(() => decideRef.current(c), MODAL_REOPEN_DELAY_MS);
        }}
      />
    </Suspense>
  ) : null;
  return { start, open, busyClassId, modals };
}
