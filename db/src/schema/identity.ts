import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz } from './columns.ts';

/**
 * Identities of the local sign-in provider. Under Firebase the identity lives
 * there and only customer.uid links to it; these tables stay empty.
 */
export const auth_user = pgTable(
  'auth_user',
  {
    uid: text('uid').primaryKey(),
    /** Always stored lower-cased, so the unique index is case-insensitive in practice. */
    email: text('email').notNull(),
    password_hash: text('password_hash').notNull(),
    createdAt: createdAt(),
    disabledAt: tstz('disabled_at'),
    /**
     * ID tokens issued (iat) before this instant are refused. Set, truncated to
     * the second like iat, whenever every session ends (sign out everywhere,
     * password change or reset); null until then.
     */
    tokens_valid_after: tstz('tokens_valid_after'),
  },
  (t) => [
    uniqueIndex('auth_user_email_key').on(t.email),
    check('auth_user_email_lower_check', sql`${t.email} = lower(${t.email})`),
  ],
);

export const refresh_token = pgTable(
  'refresh_token',
  {
    refresh_token_id: integer('refresh_token_id').primaryKey().generatedAlwaysAsIdentity(),
    uid: text('uid')
      .notNull()
      .references(() => auth_user.uid, { onDelete: 'cascade' }),
    /** sha-256 of the token; the token itself is never stored. */
    token_hash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expires_at: tstz('expires_at').notNull(),
    revokedAt: tstz('revoked_at'),
    /**
     * The token that replaced this one, encrypted with a key only this token derives: a rotation whose answer was
     * lost is answered again with the same successor for a short grace (decision 126).
     */
    successor_sealed: text('successor_sealed'),
  },
  (t) => [uniqueIndex('refresh_token_token_hash_key').on(t.token_hash), index('refresh_token_uid_idx').on(t.uid)],
);

export const password_reset = pgTable(
  'password_reset',
  {
    password_reset_id: integer('password_reset_id').primaryKey().generatedAlwaysAsIdentity(),
    uid: text('uid')
      .notNull()
      .references(() => auth_user.uid, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull(),
    expires_at: tstz('expires_at').notNull(),
    usedAt: tstz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('password_reset_token_hash_key').on(t.token_hash), index('password_reset_uid_idx').on(t.uid)],
);

/**
 * A requested change of sign-in e-mail, waiting for the link mailed to the new
 * address (like Firebase's verifyBeforeUpdateEmail): the e-mail changes only
 * when that link is opened.
 */
export const email_change = pgTable(
  'email_change',
  {
    email_change_id: integer('email_change_id').primaryKey().generatedAlwaysAsIdentity(),
    uid: text('uid')
      .notNull()
      .references(() => auth_user.uid, { onDelete: 'cascade' }),
    new_email: text('new_email').notNull(),
    /** sha-256 of the mailed token; the token itself is never stored. */
    token_hash: text('token_hash').notNull(),
    expires_at: tstz('expires_at').notNull(),
    usedAt: tstz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('email_change_token_hash_key').on(t.token_hash),
    index('email_change_uid_idx').on(t.uid),
    check('email_change_new_email_lower_check', sql`${t.new_email} = lower(${t.new_email})`),
  ],
);

/**
 * Failed sign-ins, one row each, shared by every server process so the
 * per-account limit holds behind a load balancer. Rows older than the window
 * are pruned when the same account fails again, and all of an account's rows
 * go on a successful sign-in.
 */
export const auth_login_failure = pgTable(
  'auth_login_failure',
  {
    auth_login_failure_id: integer('auth_login_failure_id').primaryKey().generatedAlwaysAsIdentity(),
    /** Lower-cased, as typed at sign-in. */
    email: text('email').notNull(),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [
    index('auth_login_failure_email_created_at_idx').on(t.email, t.createdAt),
    check('auth_login_failure_email_lower_check', sql`${t.email} = lower(${t.email})`),
  ],
);
