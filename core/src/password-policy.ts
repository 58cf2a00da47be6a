/**
 * The password policy of the sign-in provider (spec, account area §5): minimum
 * length 6 by default, optional maximum and character-class requirements. The
 * policy fails if any enabled rule fails.
 */
export interface PasswordPolicy {
  minLength: number;
  maxLength?: number;
  requireLowercase?: boolean;
  requireUppercase?: boolean;
  requireNumeric?: boolean;
  requireNonAlphanumeric?: boolean;
}

export const defaultPasswordPolicy: PasswordPolicy = { minLength: 6 };

export type PasswordRule = 'minLength' | 'maxLength' | 'lowercase' | 'uppercase' | 'numeric' | 'nonAlphanumeric';

export const passwordRuleTexts: Record<PasswordRule, (p: PasswordPolicy) => string> = {
  minLength: (p) => `La contraseña debe tener al menos ${p.minLength} caracteres.`,
  maxLength: (p) => `La contraseña debe tener como máximo ${p.maxLength} caracteres.`,
  lowercase: () => 'La contraseña debe incluir una letra minúscula.',
  uppercase: () => 'La contraseña debe incluir una letra mayúscula.',
  numeric: () => 'La contraseña debe incluir un número.',
  nonAlphanumeric: () => 'La contraseña debe incluir un carácter especial.',
};

/** Returns the rules the password breaks; an empty list means it is valid. */
export function checkPassword(password: string, policy: PasswordPolicy = defaultPasswordPolicy): PasswordRule[] {
  const failed: PasswordRule[] = [];
  const length = [...password].length;
  if (length < policy.minLength) failed.push('minLength');
  if (policy.maxLength !== undefined && length > policy.maxLength) failed.push('maxLength');
  if (policy.requireLowercase && !/\p{Ll}/u.test(password)) failed.push('lowercase');
  if (policy.requireUppercase && !/\p{Lu}/u.test(password)) failed.push('uppercase');
  if (policy.requireNumeric && !/\p{Nd}/u.test(password)) failed.push('numeric');
  if (policy.requireNonAlphanumeric && !/[^\p{L}\p{Nd}]/u.test(password)) failed.push('nonAlphanumeric');
  return failed;
}

/** Reads the policy from the app configuration (keys password_*). */
export function passwordPolicyFromConfig(config: Record<string, string | undefined>): PasswordPolicy {
  const num = (v: string | undefined) => (v && /^\d+$/.test(v) ? Number(v) : undefined);
  const flag = (v: string | undefined) => v === 'true' || v === '1';
  return {
    minLength: num(config.password_min_length) ?? defaultPasswordPolicy.minLength,
    maxLength: num(config.password_max_length),
    requireLowercase: flag(config.password_require_lowercase),
    requireUppercase: flag(config.password_require_uppercase),
    requireNumeric: flag(config.password_require_numeric),
    requireNonAlphanumeric: flag(config.password_require_non_alphanumeric),
  };
}
