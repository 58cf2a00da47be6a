import type { SingleClassOutput } from '../types.ts';
import { BookingModal } from './BookingModal.tsx';
import { LoginModal } from './LoginModal.tsx';
import { CompleteInfoModal, NoCreditsModal, PackageOnlyModal, PenaltyModal } from './MessageModals.tsx';
import { WaitlistModal } from './WaitlistModal.tsx';
import type { Dialog } from './useReserveFlow.tsx';

interface Props {
  dialog: Dialog;
  opened: boolean;
  onClose: () => void;
  /** The visitor closed the sign-in: the class they tapped is forgotten. */
  onLoginCancelled: () => void;
  /** The booking answered with a newer state of the class: open it again with that. */
  onStaleBooking: (fresh: SingleClassOutput) => void;
  /** The missing information was saved: the class she tapped opens again. */
  onResume: (singleClass: SingleClassOutput) => void;
}

/**
 * The reserve flow's dialogs, in a chunk of their own (useReserveFlow loads
 * it lazily): a schedule is read far more often than a class is booked.
 */
export default function ReserveDialog({ dialog, opened, onClose, onLoginCancelled, onStaleBooking, onResume }: Props) {
  const common = { opened, onClose };
  switch (dialog.kind) {
    case 'login':
      return <LoginModal opened={opened} onCancel={onLoginCancelled} onSignedIn={onClose} />;
    case 'completeInfo':
      return <CompleteInfoModal {...common} onCompleted={() => onResume(dialog.singleClass)} />;
    case 'waitlist':
      return <WaitlistModal {...common} singleClass={dialog.singleClass} />;
    case 'booking':
      return <BookingModal {...common} singleClass={dialog.singleClass} onStale={onStaleBooking} />;
    case 'penalty':
      return <PenaltyModal {...common} penalty={dialog.penalty} />;
    case 'noCredits':
      return <NoCreditsModal {...common} />;
    case 'packageOnly':
      return <PackageOnlyModal {...common} singleClass={dialog.singleClass} />;
  }
}
