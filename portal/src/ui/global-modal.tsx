import { useSyncExternalStore, type ReactNode } from 'react';
import { Button, Group, Modal, Text } from '@mantine/core';
import { texts } from '@estudio/core';

export interface GlobalModalOptions {
  /** Defaults to the spec's 'Precaución'. */
  title?: ReactNode;
  message: ReactNode;
  confirmLabel?: string;
  onConfirm?: () => void;
  size?: string;
}

let current: (GlobalModalOptions & { opened: boolean }) | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

/** Opens the app's one global modal (spec: "Modal, error alert and success alert are global"). */
export function openGlobalModal(options: GlobalModalOptions): void {
  current = { ...options, opened: true };
  emit();
}

export function closeGlobalModal(): void {
  if (current) current = { ...current, opened: false };
  emit();
}

export function GlobalModal() {
  const state = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
    // The server's pre-render (decision 026): no modal is open.
    () => null,
  );
  const close = () => closeGlobalModal();
  return (
    <Modal opened={state?.opened ?? false} onClose={close} title={state?.title ?? texts.modal.defaultTitle} size={state?.size ?? 'md'} centered>
      {typeof state?.message === 'string' ? <Text>{state.message}</Text> : state?.message}
      <Group justify="flex-end" mt="lg">
        <Button
          onClick={() => {
            close();
            state?.onConfirm?.();
          }}
        >
          {state?.confirmLabel ?? texts.blocking.acceptButton}
        </Button>
      </Group>
    </Modal>
  );
}
