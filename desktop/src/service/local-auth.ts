import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { afterFailure, deskPinPattern, DomainError, lockoutRemainingMs, noAttempts, texts, waitMinutes, type LocalAttempts } from '@estudio/core';
import { query } from '@estudio/sync/client/replica';
import { sql } from 'drizzle-orm';
import type { Replica } from '@estudio/sync/client/types';
import type { DeskUser } from './session.ts';

/**
 * What the desk keeps to let staff sign in, unlock or switch account while the
 * server is away (decision 018): per account that signed in online on this
 * desk, its profile and scrypt verifiers of its password and PIN (random salt
 * each, never the secret, never reversible), and its failed guesses.
 */
interface Verifier {
  salt: string;
  hash: string;
  N: number;
  r: number;
  p: number;
}

interface LocalAccount {
  user: DeskUser;
  password: Verifier;
  pin: Verifier | null;
  attempts: LocalAttempts;
}

/** 2^15 × 8 × 128 bytes = 32 MiB and about 0.1 s per check: a stolen replica costs a guesser that much per guess. */
const params = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const keyOf = (email: string) => `desk.local_account.${email.trim().toLowerCase()}`;

function derive(secret: string, salt: Buffer, v: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { N: v.N, r: v.r, p: v.p, maxmem: 256 * v.N * v.r + 1024 * 1024 };
  return new Promise((resolve, reject) => scrypt(secret.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key))));
}

async function makeVerifier(secret: string): Promise<Verifier> {
  const salt = randomBytes(16);
  return { salt: salt.toString('base64'), hash: (await derive(secret, salt, params)).toString('base64'), ...params };
}

async function matches(secret: string, v: Verifier): Promise<boolean> {
  const expected = Buffer.from(v.hash, 'base64');
  const actual = await derive(secret, Buffer.from(v.salt, 'base64'), v);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export class LocalAuth {
  constructor(
    private readonly replica: () => Replica,
    private readonly now: () => number,
  ) {}

  private async read(email: string): Promise<LocalAccount | null> {
    const raw = await this.replica().getMeta(keyOf(email));
    if (!raw) return null;
    try {
      return JSON.parse(raw) as LocalAccount;
    } catch {
      return null;
    }
  }

  private write(email: string, account: LocalAccount | null): Promise<void> {
    return this.replica().setMeta(keyOf(email), account ? JSON.stringify(account) : null);
  }

  /** After a successful online sign-in: the password's verifier is renewed (the PIN stays), failures are cleared. */
  async remember(user: DeskUser, password: string): Promise<void> {
    const existing = await this.read(user.email);
    await this.write(user.email, { user, password: await makeVerifier(password), pin: existing?.user.uid === user.uid ? existing.pin : null, attempts: noAttempts });
  }

  /** The server refused this account (wrong or changed password, role lost, tokens revoked): it can no longer sign in offline. */
  async forget(email: string): Promise<void> {
    await this.write(email, null);
  }

  async known(email: string): Promise<boolean> {
    return (await this.read(email)) !== null;
  }

  async hasPin(email: string): Promise<boolean> {
    return Boolean((await this.read(email))?.pin);
  }

  /** Whether this is the password the desk knows for the account (no guess counted: the server just checked it). */
  async passwordMatches(email: string, password: string): Promise<boolean> {
    const account = await this.read(email);
    return account ? matches(password, account.password) : false;
  }

  /**
   * Changes other accounts made on this desk that still wait in their outbox
   * (bound to their sync client id, they go out when that person signs in
   * again), by the person's name, so the next shift knows.
   */
  async waitingForOthers(currentClientId: string | null): Promise<{ name: string; pending: number }[]> {
    const db = this.replica().db;
    const rows = await query<{ name: string | null; uid: string | null; pending: number }>(
      db,
      sql`select a.value::jsonb -> 'user' ->> 'name' || ' ' || (a.value::jsonb -> 'user' ->> 'last_name') as name,
                 substr(c.key, length('sync.client_id.') + 1) as uid, count(*)::int as pending
            from desk.outbox o
            join desk.meta c on c.key like 'sync.client_id.%' and c.value = o.client_id
            left join desk.meta a on a.key like 'desk.local_account.%' and (a.value::jsonb -> 'user' ->> 'uid') = substr(c.key, length('sync.client_id.') + 1)
           where o.client_id is distinct from ${currentClientId}
           group by 1, 2 order by 1`,
    );
    return rows.map((r) => ({ name: r.name ?? texts.deskShift.anotherAccount, pending: r.pending }));
  }

  /** Checks the password offline; counts the failure toward the account's lockout on this desk. */
  async checkPassword(email: string, password: string): Promise<DeskUser> {
    const account = await this.read(email);
    if (!account) throw new DomainError('desk/offline-unknown-account');
    return this.check(email, account, password, account.password, 'desk/offline-wrong-password');
  }

  async checkPin(email: string, pin: string): Promise<DeskUser> {
    const account = await this.read(email);
    if (!account?.pin) throw new DomainError('desk/no-pin');
    return this.check(email, account, pin, account.pin, 'desk/wrong-pin');
  }

  async setPin(email: string, pin: string): Promise<void> {
    if (!deskPinPattern.test(pin)) throw new DomainError('desk/pin-format');
    const account = await this.read(email);
    if (!account) throw new DomainError('desk/offline-unknown-account');
    await this.write(email, { ...account, pin: await makeVerifier(pin) });
  }

  private async check(email: string, account: LocalAccount, secret: string, verifier: Verifier, wrong: 'desk/offline-wrong-password' | 'desk/wrong-pin'): Promise<DeskUser> {
    const now = this.now();
    const wait = lockoutRemainingMs(account.attempts, now);
    if (wait > 0) throw new DomainError('desk/too-many-guesses', `Demasiados intentos en esta recepción. Espera ${waitMinutes(wait)} min e inténtalo de nuevo.`);
    if (await matches(secret, verifier)) {
      if (account.attempts.failures) await this.write(email, { ...account, attempts: noAttempts });
      return account.user;
    }
    // Re-read: another check may have counted meanwhile.
    const latest = (await this.read(email)) ?? account;
    await this.write(email, { ...latest, attempts: afterFailure(latest.attempts, this.now()) });
    throw new DomainError(wrong);
  }
}
