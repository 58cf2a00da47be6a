import type { AuthClient } from './auth-client.ts';
import type { PublicTrpcClient } from '../api/trpc.ts';
import { toAuthError } from '../api/errors.ts';

/** The embedded identity provider: the server's own auth.* procedures. */
export function createLocalAuthClient(client: PublicTrpcClient): AuthClient {
  const call = async <T,>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw toAuthError(error);
    }
  };
  return {
    provider: 'local',
    signIn: (email, password) => call(() => client.auth.login.mutate({ email, password })),
    signUp: (email, password) => call(() => client.auth.signup.mutate({ email, password })),
    refresh: (refreshToken) => call(() => client.auth.refresh.mutate({ refreshToken })),
    sendPasswordReset: async (email) => {
      const answer = await call(() => client.auth.recover.mutate({ email }));
      return { delivery: answer.delivery };
    },
  };
}
