import { useState, type FormEvent } from 'react';
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { Link, Navigate } from 'react-router';
import { texts } from '@estudio/core';
import { useSession } from '../../session/SessionProvider.tsx';
import { signInErrorText } from './sign-in-error.ts';
import { showError } from '../../ui/alerts.ts';
import { AuthLayout } from './AuthLayout.tsx';
import { EmailField } from './EmailField.tsx';
import { PasswordField } from './PasswordField.tsx';

export default function LoginPage() {
  const { status, signIn } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [submitting, setSubmitting] = useState(false);

  if (status === 'signedIn') return <Navigate to="/mystudio" replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = {
      email: email.trim() ? undefined : texts.forms.fieldRequired,
      password: password ? undefined : texts.forms.fieldRequired,
    };
    setErrors(found);
    if (found.email || found.password) return;
    setSubmitting(true);
    try {
      await signIn(email.trim(), password);
    } catch (error) {
      showError(signInErrorText(error));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthLayout heading={texts.auth.loginHeading}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <EmailField
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={errors.email}
            size="md"
          />
          <PasswordField
            label={texts.forms.password}
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={errors.password}
            size="md"
          />
          <Group justify="flex-end" mt={-6}>
            <Anchor component={Link} to="/recuperar" size="sm">
              {texts.auth.forgotPasswordLink}
            </Anchor>
          </Group>
          <Button type="submit" size="md" fullWidth loading={submitting || status === 'signingIn'}>
            {texts.auth.loginButton}
          </Button>
          <Text ta="center" size="sm">
            <Anchor component={Link} to="/registro" fw={600}>
              {texts.auth.createAccountLink}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
