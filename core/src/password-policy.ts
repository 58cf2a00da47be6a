/**
 * The password policy of the sign-in provider (spec, account area §5): a
 * minimum length, an optional maximum and character-class requirements; the
 * policy fails if any enabled rule fails.
 *
 * Two rules hold whatever the app config says (decision 013): the minimum is
 * never below {@link passwordLengthFloor}, and a very common password (the
 * first ones an attacker tries) is refused.
 */
export interface PasswordPolicy {
  minLength: number;
  maxLength?: number;
  requireLowercase?: boolean;
  requireUppercase?: boolean;
  requireNumeric?: boolean;
  requireNonAlphanumeric?: boolean;
}

/** The shortest password accepted, whatever password_min_length says (the spec's default was 6). */
export const passwordLengthFloor = 8;
/** The longest value password_max_length may take (the input schemas cap passwords at 256). */
export const passwordLengthCeiling = 256;

export const defaultPasswordPolicy: PasswordPolicy = { minLength: passwordLengthFloor };

export type PasswordRule = 'minLength' | 'maxLength' | 'common' | 'lowercase' | 'uppercase' | 'numeric' | 'nonAlphanumeric';

export const passwordRuleTexts: Record<PasswordRule, (p: PasswordPolicy) => string> = {
  minLength: (p) => `La contraseña debe tener al menos ${effectiveMinLength(p)} caracteres.`,
  maxLength: (p) => `La contraseña debe tener como máximo ${p.maxLength} caracteres.`,
  common: () => 'Esa contraseña es muy común y fácil de adivinar. Elige otra.',
  lowercase: () => 'La contraseña debe incluir una letra minúscula.',
  uppercase: () => 'La contraseña debe incluir una letra mayúscula.',
  numeric: () => 'La contraseña debe incluir un número.',
  nonAlphanumeric: () => 'La contraseña debe incluir un carácter especial.',
};

/**
 * The most used passwords in public breach lists (global and Spanish-speaking),
 * plus the obvious ones for a fitness studio. Compared without case, accents
 * or surrounding spaces. Short entries are already refused by the floor; they
 * stay so the list still protects if the floor is ever lowered.
 */
const commonPasswordList = [
  '123456', '1234567', '12345678', '123456789', '1234567890', '0123456789', '987654321', '9876543210',
  '111111', '11111111', '000000', '00000000', '123123', '12341234', '123123123', '112233', '11223344',
  '654321', '666666', '121212', '123321', '147258369', '159753', '1q2w3e4r', '1q2w3e4r5t', 'q1w2e3r4',
  'password', 'password1', 'password12', 'password123', 'passw0rd', 'p@ssw0rd', 'p4ssw0rd',
  'contraseña', 'contraseña1', 'contraseña12', 'contraseña123', 'micontraseña', 'nuevacontraseña',
  'qwerty', 'qwerty12', 'qwerty123', 'qwertyui', 'qwertyuiop', 'azerty', 'asdfghjk', 'asdfghjkl', 'asdf1234',
  'zxcvbnm', 'zxcvbnm1', 'abc123', 'abc12345', 'abcd1234', 'abcdefgh', 'a1b2c3d4', 'aa123456',
  'iloveyou', 'teamo', 'teamo123', 'tequiero', 'tequiero1', 'amor1234', 'miamor', 'princesa', 'princesa1',
  'hola1234', 'holahola', 'bienvenido', 'bienvenida', 'welcome', 'welcome1', 'admin', 'admin123', 'administrador',
  'letmein', 'monkey', 'dragon', 'football', 'baseball', 'sunshine', 'superman', 'batman', 'master', 'shadow',
  'futbol', 'futbol123', 'mexico', 'mexico123', 'mexico2024', 'mexico2025', 'america', 'america1', 'chivas', 'chivas123',
  'estudio', 'estudio1', 'estudio123', 'estudio2024', 'estudio2025', 'estudiodemo', 'demo1234', 'cliente', 'cliente123',
  'pilates', 'pilates1', 'pilates123', 'yoga1234', 'yogayoga', 'barre123', 'cycling', 'cycling1', 'spinning', 'spinning1',
  'fitness', 'fitness1', 'fitness123', 'gimnasio', 'gimnasio1', 'gym12345', 'crossfit', 'entrenar', 'ejercicio',
];

/** Lower-cased, accents removed (ñ becomes n), surrounding spaces trimmed. */
function canonical(password: string): string {
  return password.trim().toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');
}

const commonPasswords: ReadonlySet<string> = new Set(commonPasswordList.map(canonical));

/** True for a password in the built-in list or made of one repeated character ('aaaaaaaa'). */
export function isCommonPassword(password: string): boolean {
  const value = canonical(password);
  return commonPasswords.has(value) || /^(.)\1*$/u.test(value);
}

/** The minimum the policy really enforces: the configured one, never below the floor. */
export function effectiveMinLength(policy: PasswordPolicy): number {
  return Math.max(passwordLengthFloor, policy.minLength);
}

/** Returns the rules the password breaks; an empty list means it is valid. */
export function checkPassword(password: string, policy: PasswordPolicy = defaultPasswordPolicy): PasswordRule[] {
  const failed: PasswordRule[] = [];
  const length = [...password].length;
  if (length < effectiveMinLength(policy)) failed.push('minLength');
  if (policy.maxLength !== undefined && length > policy.maxLength) failed.push('maxLength');
  if (isCommonPassword(password)) failed.push('common');
  if (policy.requireLowercase && !/\p{Ll}/u.test(password)) failed.push('lowercase');
  if (policy.requireUppercase && !/\p{Lu}/u.test(password)) failed.push('uppercase');
  if (policy.requireNumeric && !/\p{Nd}/u.test(password)) failed.push('numeric');
  if (policy.requireNonAlphanumeric && !/[^\p{L}\p{Nd}]/u.test(password)) failed.push('nonAlphanumeric');
  return failed;
}

/** Reads the policy from the app configuration (keys password_*); a malformed or too-low value gives way to the floor. */
export function passwordPolicyFromConfig(config: Record<string, string | undefined>): PasswordPolicy {
  const num = (v: string | undefined) => (v && /^\d+$/.test(v) ? Number(v) : undefined);
  const flag = (v: string | undefined) => v === 'true' || v === '1';
  const minLength = Math.max(passwordLengthFloor, num(config.password_min_length) ?? passwordLengthFloor);
  const max = num(config.password_max_length);
  return {
    minLength,
    // A maximum below the minimum (stored before validation) would refuse every password: ignored.
    maxLength: max !== undefined && max >= minLength ? max : undefined,
    requireLowercase: flag(config.password_require_lowercase),
    requireUppercase: flag(config.password_require_uppercase),
    requireNumeric: flag(config.password_require_numeric),
    requireNonAlphanumeric: flag(config.password_require_non_alphanumeric),
  };
}
