// What a form or a change says back: the confirmation before it, its error, a line of help.
import { texts } from '@estudio/core';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { type ReactNode } from 'react';
import { errorText } from '../format.ts';

const t = texts.adminConsole;

/** A confirmation before an irreversible change; the error of the change shows inside. No `confirmLabel`: only Cerrar (the change is refused and the text says why). */
export function ConfirmModal({
  opened,
  title,
  children,
  confirmLabel,
  onConfirm,
  onClose,
  loading,
  error,
  color = 'red',
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string | null;
  onConfirm: () => void;
  onClose: () => void;
  loading: boolean;
  error: unknown;
  color?: string;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Stack>
        {children}
        {error ? <Alert color="red">{errorText(error)}</Alert> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t.close}
          </Button>
          {confirmLabel !== null && (
            <Button color={color} onClick={onConfirm} loading={loading} data-testid="confirm-button">
              {confirmLabel}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}

/** The form's own error (not tied to a field). */
export function FormError({ message }: { message: string | null }) {
  return message ? (
    <Alert color="red" data-testid="form-error">
      {message}
    </Alert>
  ) : null;
}

/** A line of help under a screen's tools. */
export function Hint({ children }: { children: ReactNode }) {
  return (
    <Text size="sm" c="dimmed">
      {children}
    </Text>
  );
}
