import { roleNames, type CurrentUserOutput } from '@estudio/core';
import type { Caller } from './caller.ts';

/**
 * The signed-in user as `GET /api/users` answers it: the identity, its
 * customer (if it signed up as one) and the role stored on that customer.
 * The caller was read when the token was verified; nothing more to load.
 */
export function currentUserOf(caller: Caller): CurrentUserOutput {
  const { customer } = caller;
  return {
    user: {
      uid: caller.uid,
      email: customer?.email ?? caller.email,
      customer_id: customer?.customer_id ?? null,
      name: customer?.name ?? null,
      last_name: customer?.last_name ?? null,
      role: caller.role,
      role_name: roleNames[caller.role],
    },
  };
}
