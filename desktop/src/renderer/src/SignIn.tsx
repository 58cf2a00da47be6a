import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { texts } from '@estudio/core';
import { useState, type FormEvent } from 'react';
import { errorText } from './format.ts';
import { ConnectingTo } from './ServerAddress.tsx';
import { trpc } from './trpc.ts';

const t = texts.desk;

/** Staff sign-in: the desk asks the server once; afterwards it stays signed in across restarts, even offline. */
export function SignIn({ problem, serverUrl }: { problem: string | null; serverUrl: string | null }) {
  const utils = trpc.useUtils();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = trpc.session.signIn.useMutation({ onSuccess: () => utils.session.get.invalidate() });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate({ email, password });
  };
  return (
    <Center h="100vh" bg="gray.0">
      <Paper withBorder shadow="sm" p="xl" w={420} component="form" onSubmit={submit}>
        <Stack>
          <Title order={2}>{t.signInHeading}</Title>
          <Text c="dimmed" size="sm">
            {t.signInHint}
          </Text>
          {(signIn.error || problem) && (
            <Alert color="red" role="alert">
              {signIn.error ? errorText(signIn.error) : problem}
            </Alert>
          )}
          <TextInput label={t.emailLabel} type="email" autoComplete="username" required autoFocus value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
          <PasswordInput label={t.passwordLabel} autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
          <Button type="submit" size="md" loading={signIn.isPending}>
            {t.signInButton}
          </Button>
          {/* 'Conectando a <host>' (decision 019), once the desk has an address. */}
          {serverUrl && <ConnectingTo />}
        </Stack>
      </Paper>
    </Center>
  );
}
