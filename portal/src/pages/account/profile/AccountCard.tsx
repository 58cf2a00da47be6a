import { useState } from 'react';
import { Button, Group, Paper, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { checkPassword, passwordPolicyFromConfig, passwordRuleTexts, texts } from '@estudio/core';
import { trpc } from '../../../api/trpc.ts';
import { errorMessage } from '../../../api/errors.ts';
import { useAppConfig } from '../../../config/AppConfigContext.tsx';
import { useSession, type Customer } from '../../../session/SessionProvider.tsx';
import { showError, showSuccess } from '../../../ui/alerts.ts';

/**
 * The account's e-mail and a password change through the identity provider.
 * The change revokes every other session and answers new tokens, which this
 * session keeps. The server offers no e-mail change, so the e-mail is read-only.
 */
export function AccountCard({ customer }: { customer: Customer }) {
  const config = useAppConfig();
  const { store } = useSession();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const change = trpc.auth.changePassword.useMutation({
    onSuccess: (tokens) => {
      store.start(tokens);
      setPassword('');
      setConfirm('');
      showSuccess(texts.profile.passwordChanged);
    },
    onError: (failure) => showError(errorMessage(failure)),
  });

  const submit = () => {
    const policy = passwordPolicyFromConfig(config);
    const broken = checkPassword(password, policy)[0];
    const found = {
      password: broken ? passwordRuleTexts[broken](policy) : undefined,
      confirm: !broken && password !== confirm ? texts.auth.passwordsMismatch : undefined,
    };
    setErrors(found);
    if (found.password || found.confirm) return;
    change.mutate({ password, password_confirm: confirm });
  };

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
      <Title order={2} fz="xl" mb="lg">
        {texts.profile.accountHeading}
      </Title>
      <Stack gap="lg">
        <TextInput label={texts.forms.email} value={customer.email} readOnly description={texts.profile.emailReadOnly} maw={420} />
        <Stack gap="sm" component="form" aria-label={texts.profile.passwordHeading} onSubmit={(e) => { e.preventDefault(); submit(); }}>
          <Text fw={700}>{texts.profile.passwordHeading}</Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <PasswordInput label={texts.forms.newPassword} autoComplete="new-password" value={password} error={errors.password} onChange={(e) => setPassword(e.currentTarget.value)} />
            <PasswordInput label={texts.forms.passwordConfirm} autoComplete="new-password" value={confirm} error={errors.confirm} onChange={(e) => setConfirm(e.currentTarget.value)} />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" variant="light" loading={change.isPending} disabled={!password}>
              {texts.profile.passwordButton}
            </Button>
          </Group>
        </Stack>
      </Stack>
    </Paper>
  );
}
