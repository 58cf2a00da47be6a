import { z } from '../zod.ts';

// 254: the longest address mail can deliver (RFC 5321); the portal's inputs stop there too.
export const email = z.string().trim().max(254).toLowerCase().pipe(z.email({ error: 'El correo electrónico no es válido.' })).describe('Correo electrónico');

export const credentialsInput = z.object({
  email,
  password: z.string({ error: 'Debes escribir tu contraseña.' }).min(1, { error: 'Debes escribir tu contraseña.' }).max(256),
});

export const signupAuthInput = credentialsInput;

export const refreshInput = z.object({ refreshToken: z.string().min(1).max(512) });

export const recoverInput = z.object({ email });

/**
 * POST /api/auth/recover's answer: the same whatever the e-mail (it never says whether an account
 * exists), and whether the studio can send e-mail at all: 'none' means no link was sent to anybody,
 * and the portal says so and how to reach the studio (decision 079).
 */
export const recoverOutput = z.object({ ok: z.literal(true), delivery: z.enum(['email', 'none']) });

export const resetPasswordInput = z.object({
  token: z.string().min(1).max(512),
  password: z.string().min(1).max(256),
});

/** PUT /api/auth/password: the current password proves the owner is at the keyboard, not only a session. */
export const changePasswordInput = z
  .object({
    current_password: z.string({ error: 'Debes escribir tu contraseña actual.' }).min(1, { error: 'Debes escribir tu contraseña actual.' }).max(256),
    password: z.string().min(1).max(256),
    password_confirm: z.string().min(1).max(256),
  })
  .refine((v) => v.password === v.password_confirm, { error: 'Las contraseñas no coinciden', path: ['password_confirm'] });

/** Asks to move the sign-in to a new e-mail; the current password proves it is the owner. */
export const requestEmailChangeInput = z.object({
  email,
  password: z.string({ error: 'Debes escribir tu contraseña.' }).min(1, { error: 'Debes escribir tu contraseña.' }).max(256),
});

export const confirmEmailChangeInput = z.object({ token: z.string().min(1).max(512) });

export const confirmEmailChangeOutput = z.object({ ok: z.literal(true), email: z.string() });

/** What every sign-in answers, as Firebase's REST API does. */
export const authTokens = z.object({
  idToken: z.string(),
  refreshToken: z.string(),
  /** Seconds until the ID token expires, as a string (Firebase's shape). */
  expiresIn: z.string(),
  localId: z.string(),
  email: z.string(),
});
export type AuthTokens = z.infer<typeof authTokens>;

/** A coach (decision 045) signs into the console to read its own classes and their rosters; everywhere else it is a customer. */
export const roles = ['customer', 'staff', 'admin', 'coach'] as const;
export type Role = (typeof roles)[number];

/**
 * `GET /api/users`: who signed in and with which role, the first call of the
 * studio's previous admin panel (it reads `user.role`). An identity that has
 * not signed up as a customer yet has no customer_id and is a customer.
 */
export const currentUserOutput = z.object({
  user: z.object({
    uid: z.string(),
    email: z.string().nullable(),
    customer_id: z.number().nullable(),
    name: z.string().nullable(),
    last_name: z.string().nullable(),
    role: z.enum(roles),
    /** The role as people read it ('Administrador'). */
    role_name: z.string(),
  }),
});
export type CurrentUserOutput = z.infer<typeof currentUserOutput>;

/** Answers that carry no data (recover, reset, sign out everywhere). */
export const okOutput = z.object({ ok: z.literal(true) });
