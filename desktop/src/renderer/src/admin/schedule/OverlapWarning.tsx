import { Alert, Button } from '@mantine/core';
import { useEffect, useState } from 'react';
import { errorCode, errorText } from '../../format.ts';

/**
 * The server's 409 for a class in the way (same place or coach, same time):
 * shown as a warning with the choice to keep the class anyway, instead of as
 * an error. Any other refusal goes to the form as before. The warning is
 * about what was sent: it goes when the form changes.
 */
export function useOverlapWarning(serverError: (error: unknown) => void, values: unknown, fieldError?: (key: 'room_id' | 'capacity', message: string) => void) {
  const [clash, setClash] = useState<string | null>(null);
  useEffect(() => setClash(null), [values]);
  const onError = (error: unknown) => {
    const code = errorCode(error);
    if (code === 'schedule/overlap') setClash(errorText(error));
    // A room's refusals belong under its field, or under the capacity it would not hold.
    else if (fieldError && code === 'room/over-capacity') fieldError('capacity', errorText(error));
    else if (fieldError && code?.startsWith('room/')) fieldError('room_id', errorText(error));
    else serverError(error);
  };
  return { clash, onError };
}

export function OverlapWarning({ clash, onConfirm, loading }: { clash: string | null; onConfirm: () => void; loading: boolean }) {
  if (!clash) return null;
  return (
    <Alert color="yellow" title="Se cruza con otra clase" data-testid="class-overlap">
      {clash}
      <Button display="block" mt="sm" color="yellow" c="dark" onClick={onConfirm} loading={loading} data-testid="class-overlap-confirm">
        Guardar de todos modos
      </Button>
    </Alert>
  );
}
