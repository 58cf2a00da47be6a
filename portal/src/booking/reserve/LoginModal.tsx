import { Anchor, Modal, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { texts } from '@estudio/core';
import { SignInForm } from '../../pages/auth/SignInForm.tsx';

interface LoginModalProps {
  opened: boolean;
  /** The visitor gave up: the pending reservation is dropped. */
  onCancel: () => void;
  /** Signed in: the reservation resumes. */
  onSignedIn: () => void;
}

/** Spec reserve flow step 1: a visitor signs in (or goes to sign up) before reserving. */
export function LoginModal({ opened, onCancel, onSignedIn }: LoginModalProps) {
  return (
    <Modal opened={opened} onClose={onCancel} title={texts.booking.loginTitle} centered closeButtonProps={{ 'aria-label': texts.shell.close }}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {texts.booking.loginText}{' '}
          <Anchor component={Link} to="/registro" fw={600} inherit>
            {texts.auth.createAccountLink}
          </Anchor>
        </Text>
        <SignInForm onSignedIn={onSignedIn} autoFocus />
      </Stack>
    </Modal>
  );
}
