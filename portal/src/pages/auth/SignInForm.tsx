import { useState, type FormEvent, type ReactNode } from 'react';
import { Anchor, Button, Group, Stack, type MantineSize } from '@mantine/core';
import { Link } from 'react-router';
import { texts } from '@estudio/core';
import { useSession } from '../../session/SessionProvider.tsx';
import { errorFacts } from '../../api/errors.ts';
import { showError } from '../../ui/alerts.ts';
import { EmailField } from './EmailField.tsx';
import { PasswordField } from './PasswordField.tsx';
import { signInErrorText } from './sign-in-error.ts';

interface SignInFormProps {
  /** Called once the session is open (the login page instead redirects on the session's status). */
  onSignedIn?: () => void;
  /** What goes under the button: the sign-up link, or a switch to the sign-up form. */
  footer?: ReactNode;
  size?: MantineSize;
  autoFocus?: boolean;
}

/**
 * E-mail and password with the spec's Mostrar/Ocultar toggle, the recovery
 * link and the 'Entrar' button; the one sign-in form of the login page, the
 * booking flow's login modal and the checkout.
 */
export function SignInForm({ onSignedIn, footer, size, autoFocus }: SignInFormProps) {
  const { signIn, status } = useSession();
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
      onSignedIn?.();
    } catch (error) {
      // A refused e-mail or password shows under its field; the spec's sign-in errors are the one alert.
      const { field, fieldMessage } = errorFacts(error);
      if ((field === 'email' || field === 'password') && fieldMessage) setErrors({ [field]: fieldMessage });
      else showError(signInErrorText(error));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="md">
        <EmailField value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={errors.email} size={size} data-autofocus={autoFocus || undefined} />
        <PasswordField
          label={texts.forms.password}
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={errors.password}
          size={size}
        />
        <Group justify="flex-end" mt={-6}>
          <Anchor component={Link} to="/recuperar" size="sm">
            {texts.auth.forgotPasswordLink}
          </Anchor>
        </Group>
        <Button type="submit" size={size} fullWidth loading={submitting || status === 'signingIn'}>
          {texts.auth.loginButton}
        </Button>
        {footer}
      </Stack>
    </form>
  );
}
