import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { checkPassword, passwordPolicyFromConfig, passwordRuleTexts, texts } from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { errorFacts } from '../../api/errors.ts';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { useSession } from '../../session/SessionProvider.tsx';
import { showError, showSuccess } from '../../ui/alerts.ts';
import { AuthLayout } from './AuthLayout.tsx';
import { PasswordField } from './PasswordField.tsx';

interface FormErrors {
  password?: string;
  password_confirm?: string;
}

/**
 * The page the recovery e-mail links to (/recuperar?token=…): a new password
 * for the account the code was issued for. The server spends the code and
 * ends every session of the account, so the visitor signs in again.
 */
export function ResetPasswordForm({ token }: { token: string }) {
  const config = useAppConfig();
  const { store } = useSession();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [passwordConfirm, setPasswordConfirm] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  // The server's message once it says the link is used, expired or unknown; the form cannot succeed then.
  const [deadLink, setDeadLink] = useState<string>();
  const reset = trpc.auth.resetPassword.useMutation();

  const validate = (): FormErrors => {
    const found: FormErrors = {};
    if (!password) found.password = texts.forms.fieldRequired;
    else {
      const policy = passwordPolicyFromConfig(config);
      const broken = checkPassword(password, policy)[0];
      if (broken) found.password = passwordRuleTexts[broken](policy);
    }
    if (!passwordConfirm) found.password_confirm = texts.forms.fieldRequired;
    else if (password && password !== passwordConfirm) found.password_confirm = texts.auth.passwordsMismatch;
    return found;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate();
    setErrors(found);
    if (found.password || found.password_confirm) return;
    try {
      await reset.mutateAsync({ token, password });
    } catch (error) {
      const { code, message } = errorFacts(error);
      if (code === 'auth/invalid-action-code') setDeadLink(message);
      else showError(message);
      return;
    }
    // The reset ended every session of the account; a session kept here would only fail on its next call.
    store.signOut();
    showSuccess(texts.forms.resetDone);
    await navigate('/entrar', { replace: true });
  };

  if (deadLink) {
    return (
      <AuthLayout heading={texts.forms.resetHeading}>
        <Stack gap="md">
          <Alert color="red" variant="light" role="alert">
            {deadLink}
          </Alert>
          <Button component={Link} to="/recuperar" size="md" fullWidth>
            {texts.forms.requestNewLink}
          </Button>
          <Text ta="center" size="sm">
            <Anchor component={Link} to="/entrar" fw={600}>
              {texts.forms.backToLogin}
            </Anchor>
          </Text>
        </Stack>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout heading={texts.forms.resetHeading}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed" ta="center">
            {texts.forms.resetIntro}
          </Text>
          <PasswordField
            label={texts.forms.newPassword}
            name="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={errors.password}
            size="md"
          />
          <PasswordField
            label={texts.forms.passwordConfirm}
            name="password_confirm"
            autoComplete="new-password"
            value={passwordConfirm}
            onChange={(e) => setPasswordConfirm(e.currentTarget.value)}
            error={errors.password_confirm}
            size="md"
          />
          <Button type="submit" size="md" fullWidth loading={reset.isPending}>
            {texts.forms.resetButton}
          </Button>
          <Text ta="center" size="sm">
            <Anchor component={Link} to="/entrar" fw={600}>
              {texts.forms.backToLogin}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
