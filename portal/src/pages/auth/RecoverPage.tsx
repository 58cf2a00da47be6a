import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { IconMailOff } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { texts } from '@estudio/core';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { useSession } from '../../session/SessionProvider.tsx';
import { errorFacts } from '../../api/errors.ts';
import { showError, showSuccess } from '../../ui/alerts.ts';
import { AuthLayout } from './AuthLayout.tsx';
import { EmailField } from './EmailField.tsx';
import { ResetPasswordForm } from './ResetPasswordForm.tsx';

/** /recuperar: asks for the recovery e-mail; with the e-mail's `token`, sets the new password. */
export default function RecoverPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  return token ? <ResetPasswordForm key={token} token={token} /> : <RequestRecoveryForm />;
}

function RequestRecoveryForm() {
  const { store } = useSession();
  // The studio may send the page with the person's e-mail filled in (?email=, the previous panel's 'Generar Link').
  const [params] = useSearchParams();
  const [email, setEmail] = useState(() => params.get('email') ?? '');
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  // The studio cannot send e-mail (decision 079): no link went anywhere, so say how to get back in instead.
  const [noEmail, setNoEmail] = useState(false);
  const config = useAppConfig();
  const contact = [config.whatsapp ? `WhatsApp ${config.whatsapp}` : '', config.email ?? ''].filter(Boolean).join(' · ');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) {
      setError(texts.forms.fieldRequired);
      return;
    }
    setError(undefined);
    setSubmitting(true);
    try {
      const { delivery } = await store.authClient.sendPasswordReset(email.trim());
      if (delivery === 'none') setNoEmail(true);
      else showSuccess(texts.auth.recoverSent);
    } catch (failure) {
      // A refused address shows under the field; anything else is the one alert.
      const { field, fieldMessage, message } = errorFacts(failure);
      if (field === 'email') setError(fieldMessage ?? message);
      else showError(message);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthLayout heading={texts.forms.recoverHeading}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed" ta="center">
            {texts.forms.recoverIntro}
          </Text>
          <EmailField
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={error}
            size="md"
          />
          {noEmail ? (
            <Alert color="orange" icon={<IconMailOff size={20} />} title={texts.auth.recoverNoEmailHeading} data-testid="recover-no-email">
              <Text size="sm">{texts.auth.recoverNoEmail}</Text>
              {contact && (
                <Text size="sm" mt="xs">
                  {texts.auth.recoverNoEmailContact(contact)}
                </Text>
              )}
            </Alert>
          ) : (
            <Button type="submit" size="md" fullWidth loading={submitting}>
              {texts.auth.recoverButton}
            </Button>
          )}
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
