import type { Role } from '@estudio/core';
import type { CustomerRow } from '../customer/find-customer.ts';

/** Who is calling: the verified identity, its customer row (if it signed up as one) and its role. */
export interface Caller {
  uid: string;
  email: string | null;
  customer: CustomerRow | null;
  /** The customer's role; an identity without a customer row is a customer. */
  role: Role;
}
