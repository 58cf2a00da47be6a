import type { ReactNode } from 'react';
import { notifications } from '@mantine/notifications';

/** Spec: alerts show for 5 seconds, success messages for 3. */
export const ERROR_AUTO_CLOSE_MS = 5000;
export const SUCCESS_AUTO_CLOSE_MS = 3000;

export function showError(message: ReactNode): void {
  notifications.show({ message, color: 'red', autoClose: ERROR_AUTO_CLOSE_MS, withBorder: true });
}

export function showSuccess(message: ReactNode): void {
  notifications.show({ message, color: 'teal', autoClose: SUCCESS_AUTO_CLOSE_MS, withBorder: true });
}
