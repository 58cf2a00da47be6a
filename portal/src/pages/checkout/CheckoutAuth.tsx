import { useState } from 'react';
import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { texts } from '@estudio/core';
import { SignInForm } from '../auth/SignInForm.tsx';
import { SignupForm } from '../auth/SignupForm.tsx';

function InlineLogin({ onSignUpInstead }: { onSignUpInstead: () => void }) {
  return (
    <SignInForm
      footer={
        <Text ta="center" size="sm">
          <Anchor component="button" type="button" fw={600} onClick={onSignUpInstead}>
            {texts.checkout.noAccount}
          </Anchor>
        </Text>
      }
    />
  );
}

/** Spec: a signed-out visitor signs in or signs up right on the checkout page, then pays. */
export function CheckoutAuth() {
  const [mode, setMode] = useState<'signup' | 'login'>('signup');
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="md">
        <Title order={2} fz="lg">
          {mode === 'signup' ? texts.checkout.signUpTitle : texts.checkout.signInTitle}
        </Title>
        {mode === 'signup' ? <SignupForm onSignInInstead={() => setMode('login')} /> : <InlineLogin onSignUpInstead={() => setMode('signup')} />}
      </Stack>
    </Paper>
  );
}
