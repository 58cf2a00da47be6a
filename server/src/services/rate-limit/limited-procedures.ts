/**
 * A limit counts calls of a bucket per caller: 'signin' and 'refresh' per
 * client address (the caller is not known yet), 'discount' per customer.
 */
export type LimitBucket = 'signin' | 'refresh' | 'discount';
export const bucketCaller = { signin: 'address', refresh: 'address', discount: 'customer' } as const satisfies Record<LimitBucket, 'address' | 'customer'>;

export interface ProcedureLimit {
  /** The bucket each call is counted in. */
  bucket?: LimitBucket;
  /** Only calls whose raw input this accepts are counted (a checkout counts only when it carries a discount code). */
  counts?: (rawInput: unknown) => boolean;
}

const carriesDiscountCode = (input: unknown) => {
  const code = (input as { discountCode?: unknown } | null | undefined)?.discountCode;
  return typeof code === 'string' && code.trim() !== '';
};

/**
 * Every procedure that is limited per call, in one table (decision 012). The
 * limits run as tRPC middleware (server/src/trpc.ts), so they count each call
 * of a batch and hold for /trpc and for the same procedure under /api alike.
 * A name that is not a procedure fails rate-limits.test.ts.
 */
export const limitedProcedures: Record<string, ProcedureLimit> = {
  // Guess or spend a credential.
  'auth.login': { bucket: 'signin' },
  'auth.signup': { bucket: 'signin' },
  'auth.recover': { bucket: 'signin' },
  'auth.resetPassword': { bucket: 'signin' },
  'auth.requestEmailChange': { bucket: 'signin' },
  'auth.confirmEmailChange': { bucket: 'signin' },
  // Checks the current password as a sign-in (decision 013).
  'auth.changePassword': { bucket: 'signin' },
  // Every open portal tab refreshes behind one shared address: its own, looser bucket.
  'auth.refresh': { bucket: 'refresh' },
  // Say whether a stop link's code is a customer's; the one-click POST counts in the same bucket.
  'messages.stopPreview': { bucket: 'signin' },
  'messages.stop': { bucket: 'signin' },
  // Say whether a discount code exists: every lookup, whatever route reaches it, spends the same allowance.
  'discounts.validate': { bucket: 'discount' },
  'legacy.discountUsable': { bucket: 'discount' },
  'checkout.attempt': { bucket: 'discount', counts: carriesDiscountCode },
  'checkout.create': { bucket: 'discount', counts: carriesDiscountCode },
  'checkout.voucher': { bucket: 'discount', counts: carriesDiscountCode },
  'checkout.paypal': { bucket: 'discount', counts: carriesDiscountCode },
};
