import { useState, type FormEvent } from 'react';
import { Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { texts } from '@estudio/core';
import { useSession } from '../../session/SessionProvider.tsx';
import { showError } from '../../ui/alerts.ts';
import { EmailField } from '../../pages/auth/EmailField.tsx';
import { PasswordField } from '../../pages/auth/PasswordField.tsx';
import { signInErrorText } from '../../pages/auth/sign-in-error.ts';

interface LoginModalProps {
  opened: boolean;
  /** The visitor gave up: the pending reservation is dropped. */
  onCancel: () => void;
  /** Signed in: the reservation resumes. */
  onSignedIn: () => void;
}

/** Spec reserve flow step 1: a visitor signs in (or goes to sign up) before reserving. */
export function LoginModal({ opened, onCancel, onSignedIn }: LoginModalProps) {
  const { signIn } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = { email: email.trim() ? undefined : texts.forms.fieldRequired, password: password ? undefined : texts.forms.fieldRequired };
    setErrors(found);
    if (found.email || found.password) return;
    setSubmitting(true);
    try {
      await signIn(email.trim(), password);
      onSignedIn();
    } catch (error) {
      showError(signInErrorText(error));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onCancel} title={texts.booking.loginTitle} centered closeButtonProps={{ 'aria-label': texts.shell.close }}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {texts.booking.loginText}{' '}
            <Anchor component={Link} to="/registro" fw={600} inherit>
              {texts.auth.createAccountLink}
            </Anchor>
          </Text>
          <EmailField value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={errors.email} data-autofocus />
          <PasswordField
            label={texts.forms.password}
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={errors.password}
          />
          <Group justify="flex-end" mt={-6}>
            <Anchor component={Link} to="/recuperar" size="sm">
              {texts.auth.forgotPasswordLink}
            </Anchor>
          </Group>
          <Button type="submit" fullWidth loading={submitting}>
            {texts.auth.loginButton}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
