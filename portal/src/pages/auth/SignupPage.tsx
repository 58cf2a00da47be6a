import { Navigate } from 'react-router';
import { texts } from '@estudio/core';
import { useSession } from '../../session/SessionProvider.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { SignupForm } from './SignupForm.tsx';

export default function SignupPage() {
  const { status } = useSession();
  if (status === 'signedIn') return <Navigate to="/mystudio" replace />;
  return (
    <AuthLayout heading={texts.auth.signupHeading} width={600}>
      <SignupForm />
    </AuthLayout>
  );
}
