import type { AppConfigMap } from '@estudio/core';
import type { AuthClient } from '../session/auth-client.ts';
import { createLocalAuthClient } from '../session/local-auth-client.ts';
import { createFirebaseAuthClient } from '../session/firebase-auth-client.ts';
import type { PublicTrpcClient } from '../api/trpc.ts';

/**
 * The sign-in provider named by the `firebaseConfig` setting: `{"provider":"local"}`
 * is the server's embedded provider; `{"provider":"firebase","apiKey":...}` (or a
 * plain Firebase web config with an apiKey) is Firebase Authentication.
 * Returns null when the setting cannot be used.
 */
export function authClientFromConfig(config: AppConfigMap, client: PublicTrpcClient): AuthClient | null {
  let parsed: Record<string, unknown>;
  try {
    const value: unknown = JSON.parse(config.firebaseConfig || '{"provider":"local"}');
    if (value === null || typeof value !== 'object') return null;
    parsed = value as Record<string, unknown>;
  } catch {
    return null;
  }
  const provider = parsed.provider ?? (parsed.apiKey ? 'firebase' : 'local');
  if (provider === 'local') return createLocalAuthClient(client);
  if (provider === 'firebase') {
    const emulator = typeof parsed.authEmulatorHost === 'string' && parsed.authEmulatorHost ? parsed.authEmulatorHost : undefined;
    const apiKey = typeof parsed.apiKey === 'string' && parsed.apiKey ? parsed.apiKey : undefined;
    // The Auth emulator accepts any key; real Firebase needs the project's web API key.
    if (apiKey || emulator) return createFirebaseAuthClient({ apiKey: apiKey ?? 'emulator', authEmulatorHost: emulator });
  }
  return null;
}
