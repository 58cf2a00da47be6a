/**
 * Profile fields a customer needs before booking classes (spec: a customer
 * with missing profile fields is blocked by 'Completar Información'). The
 * sign-up form asks for all of them; accounts created at the front desk or
 * imported may lack some.
 */
export const requiredProfileFields = ['name', 'last_name', 'phone', 'birthdate'] as const;
export type RequiredProfileField = (typeof requiredProfileFields)[number];

/** Any customer shape (API output, database row, desk replica) with the profile fields. */
export type ProfileFields = { readonly [K in RequiredProfileField]?: string | null | undefined };

/** The required profile fields that are empty (missing, null or only spaces), in form order. */
export function missingProfileFields(customer: ProfileFields): RequiredProfileField[] {
  return requiredProfileFields.filter((field) => (customer[field] ?? '').trim() === '');
}

/** True when the customer may book: every required profile field is filled. */
export function isProfileComplete(customer: ProfileFields): boolean {
  return missingProfileFields(customer).length === 0;
}
