import { useCallback, useMemo, useState } from 'react';
import { formMessages, maxLengthOf, type z } from '@estudio/core';
import { errorFacts } from '../api/errors.ts';
import { clearErrors, showError } from './alerts.ts';

type Found<K extends string> = Partial<Record<K, string | undefined>>;

/**
 * The one way a portal form tells what is wrong: each message
 * under its own field, and at most one alert that sums them up — 'Revisa el
 * campo: Ciudad' for one, 'Revisa los campos faltantes o inválidos.' for
 * several. A refusal from the server that names one of the form's fields
 * goes under that field the same way; any other shows alone, in Spanish.
 * `labels` lists the form's fields in screen order, with the words people read.
 */
export function useFormErrors<K extends string>(labels: Readonly<Record<K, string>>) {
  const [errors, setErrors] = useState<Found<K>>({});

  const summarize = useCallback(
    (keys: K[]) => {
      const [first] = keys;
      if (first === undefined) return;
      // A field without a label (the terms' checkbox) says it under itself only: the alert would repeat it word for word.
      if (keys.length > 1) showError(formMessages.several);
      else if (labels[first]) showError(`${formMessages.onePrefix}${labels[first]}`);
    },
    [labels],
  );

  /** Shows what the form's own check found; true when something was wrong (then do not send). */
  const fail = useCallback(
    (found: Found<K>): boolean => {
      const order = Object.keys(labels) as K[];
      const keys = (Object.keys(found) as K[]).filter((key) => found[key]).sort((a, b) => order.indexOf(a) - order.indexOf(b));
      setErrors(Object.fromEntries(keys.map((key) => [key, found[key]])) as Found<K>);
      summarize(keys);
      return keys.length > 0;
    },
    [labels, summarize],
  );

  /** A failed save: under its field when the server names one of this form's, else one alert. */
  const failFromServer = useCallback(
    (error: unknown) => {
      const facts = errorFacts(error);
      const leaf = facts.field?.split('.').pop();
      const key = [facts.field, leaf].find((candidate): candidate is K => candidate !== undefined && Object.hasOwn(labels, candidate));
      if (key === undefined) {
        showError(facts.message);
        return;
      }
      const found = { [key]: facts.fieldMessage ?? facts.message } as Found<K>;
      setErrors(found);
      summarize([key]);
    },
    [labels, summarize],
  );

  /**
   * The person changed the field: its message goes, and so does the summing-up alert, which has done its work (at the
   * bottom of the screen it could sit over the form's own button while the person corrects).
   */
  const clear = useCallback((key: K) => {
    clearErrors();
    setErrors((current) => (current[key] ? { ...current, [key]: undefined } : current));
  }, []);
  const reset = useCallback(() => setErrors({}), []);

  return useMemo(() => ({ errors, fail, failFromServer, clear, reset }), [errors, fail, failFromServer, clear, reset]);
}

/**
 * maxLength for each field of a core schema's shape: the browser stops where
 * the server would refuse, with the number written once, in the schema.
 */
export function maxLengthsOf<S extends Record<string, z.core.$ZodType>>(shape: S): { [K in keyof S]?: number } {
  return Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, maxLengthOf(schema)])) as { [K in keyof S]?: number };
}
