import { Anchor, Text } from '@mantine/core';
import { Link, Navigate } from 'react-router';
import { texts } from '@estudio/core';
import { useSession } from '../../session/SessionProvider.tsx';
import { signInPath, useReturnTo } from '../../session/return-to.ts';
import { AuthLayout } from './AuthLayout.tsx';
import { SignInForm } from './SignInForm.tsx';

export default function LoginPage() {
  const { status } = useSession();
  const returnTo = useReturnTo();
  if (status === 'signedIn') return <Navigate to={returnTo} replace />;
  // Signed in, but the sign-up never created the customer: finish it there.
  if (status === 'needsProfile') return <Navigate to={signInPath(returnTo, '/registro')} replace />;

  return (
    <AuthLayout heading={texts.auth.loginHeading}>
      <SignInForm
        size="md"
        footer={
          <Text ta="center" size="sm">
            <Anchor component={Link} to={signInPath(returnTo, '/registro')} fw={600}>
              {texts.auth.createAccountLink}
            </Anchor>
          </Text>
        }
      />
    </AuthLayout>
  );
}
