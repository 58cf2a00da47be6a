import { TRPCClientError } from '@trpc/client';
import { purchaseErrorMessage } from '@estudio/core';
import { errorFacts } from '../api/errors.ts';

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;

/**
 * The spec's purchase error table, applied to a failed checkout call: the
 * HTTP status and the server's body ({code, message, decline_code}) go to
 * core's purchaseErrorMessage, which owns the mapping.
 */
export function purchaseErrorText(error: unknown): string {
  const facts = errorFacts(error);
  let declineCode: string | undefined;
  if (error instanceof TRPCClientError) {
    const data = asRecord(error.data);
    const candidates = [data, asRecord(data?.body), asRecord(data?.apiError)];
    for (const candidate of candidates) {
      const value = candidate?.decline_code;
      if (typeof value === 'string') {
        declineCode = value;
        break;
      }
    }
  }
  return purchaseErrorMessage(facts.status ?? 0, { code: facts.code, message: facts.message, decline_code: declineCode });
}
