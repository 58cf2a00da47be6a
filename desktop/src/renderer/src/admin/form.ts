import { useCallback, useState } from 'react';
import type { z } from '@estudio/core';
import { errorText, fieldErrorText } from '../format.ts';
import { errorField } from './api.ts';

type Errors = Record<string, string>;

/**
 * Form state checked with the core schema the server route uses: the first
 * message of each field shows under it. A refusal of the server that names a
 * field shows there too; any other shows as the form's error.
 */
export function useSchemaForm<V extends Record<string, unknown>>(initial: V) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);

  const set = useCallback(<K extends keyof V>(key: K, value: V[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    // A refusal of the whole form is about what was sent: once a field changes it no longer describes the form.
    setFormError(null);
    setErrors((e) => {
      if (!(key as string in e)) return e;
      const { [key as string]: _gone, ...rest } = e;
      return rest;
    });
  }, []);

  /**
   * The parsed payload, or null with the errors shown. `missing` names, per
   * field, what to say when a choice (a select) was left empty, where the
   * schema can only say that the id is not a number.
   */
  const validate = <S extends z.ZodType>(schema: S, payload: Record<string, unknown>, missing: Record<string, string> = {}): z.output<S> | null => {
    const parsed = schema.safeParse(payload);
    if (parsed.success) {
      setErrors({});
      setFormError(null);
      return parsed.data;
    }
    const next: Errors = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path.length ? String(issue.path[0]) : '_';
      next[key] ??= payload[key] === undefined && missing[key] ? missing[key] : issue.message;
    }
    setErrors(next);
    setFormError(next._ ?? null);
    return null;
  };

  const serverError = (error: unknown) => {
    const field = errorField(error);
    if (field) {
      // 'Revisa el campo code: …' → '…' under the field itself.
      setErrors({ [field.split('.')[0] ?? field]: fieldErrorText(error, field) });
      setFormError(null);
    } else setFormError(errorText(error));
  };

  /** A refusal the screen knows belongs to one field (a taken e-mail): its message under that field. */
  const fieldError = (key: keyof V & string, message: string) => {
    setErrors({ [key]: message });
    setFormError(null);
  };

  const reset = (next: V) => {
    setValues(next);
    setErrors({});
    setFormError(null);
  };

  return { values, set, errors, formError, validate, serverError, fieldError, reset };
}

/** '' → null, otherwise the number (NumberInput gives '' when emptied). */
export const numberOrNull = (v: number | string | null | undefined): number | null => (v === '' || v === null || v === undefined ? null : Number(v));
/** '' → null for optional texts. */
export const textOrNull = (v: string | null | undefined): string | null => (v && v.trim() ? v.trim() : null);
