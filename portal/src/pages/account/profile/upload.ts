import { domainErrors, isDomainErrorCode, texts, type FileUploadOutput } from '@estudio/core';
import type { SessionStore } from '../../../session/session-store.ts';

/** A refused upload, with the message to show. */
export class UploadError extends Error {}

/**
 * POST /api/files is a plain multipart route (not tRPC), so it is called with
 * fetch and the session's bearer token. The server checks the content's type;
 * its Spanish message is shown as it comes.
 */
export async function uploadFile(store: SessionStore, file: File, kind: 'image' | 'any' = 'any', idToken?: string): Promise<FileUploadOutput> {
  // At sign-up the identity exists before the session starts: its token comes from the caller.
  const token = idToken ?? (await store.idToken());
  const body = new FormData();
  // 'image' makes the server accept images only (spec: image upload accepts image files only).
  body.append('kind', kind);
  body.append('file', file, file.name);
  const response = await fetch('/api/files', { method: 'POST', body, headers: token ? { Authorization: `Bearer ${token}` } : {} });
  const answer = (await response.json().catch(() => null)) as (Partial<FileUploadOutput> & { message?: unknown; code?: unknown }) | null;
  if (!response.ok || !answer?.file) {
    const code = typeof answer?.code === 'string' ? answer.code : undefined;
    const message =
      typeof answer?.message === 'string' && answer.message ? answer.message : code && isDomainErrorCode(code) ? domainErrors[code].message : texts.shell.networkError;
    throw new UploadError(message);
  }
  store.noteApiSuccess();
  return answer as FileUploadOutput;
}
