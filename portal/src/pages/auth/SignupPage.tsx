import { Navigate } from 'react-router';
import { texts } from '@estudio/core';
import { useSession } from '../../session/SessionProvider.tsx';
import { useReturnTo } from '../../session/return-to.ts';
import { AuthLayout } from './AuthLayout.tsx';
import { SignupForm } from './SignupForm.tsx';

export default function SignupPage() {
  const { status } = useSession();
  const returnTo = useReturnTo();
  if (status === 'signedIn') return <Navigate to={returnTo} replace />;
  return (
    <AuthLayout heading={texts.auth.signupHeading} width={600}>
      <SignupForm />
    </AuthLayout>
  );
}
