import type { ReactNode } from 'react';
import { notifications } from '@mantine/notifications';

/** Spec: alerts show for 5 seconds, success messages for 3. */
export const ERROR_AUTO_CLOSE_MS = 5000;
export const SUCCESS_AUTO_CLOSE_MS = 3000;

/**
 * Spec: the error alert and the success alert are global — one of each. A new
 * error replaces the one showing instead of stacking under it (five
 * toasts for five empty fields), and a success clears it: nothing stale stays
 * on screen after the save that fixed it.
 */
const showing: { error?: string; success?: string } = {};

/**
 * At the top, under the header (App.tsx's Notifications, alerts.module.css): at the top right an alert covered the user
 * menu and, on a phone, the menu button; at the bottom it covered the form's own button ('Pagar Ahora').
 */
export const ALERT_POSITION = 'top-center';

function replace(kind: 'error' | 'success', message: ReactNode, color: string, autoClose: number): void {
  const previous = showing[kind];
  if (previous) notifications.hide(previous);
  // A new id each time: the toast is a new one, with its own full time on screen.
  showing[kind] = notifications.show({ message, color, autoClose, withBorder: true, position: ALERT_POSITION, onClose: ({ id }) => forget(kind, id) });
}

function forget(kind: 'error' | 'success', id?: string): void {
  if (id === undefined || showing[kind] === id) showing[kind] = undefined;
}

export function showError(message: ReactNode): void {
  replace('error', message, 'red', ERROR_AUTO_CLOSE_MS);
}

export function showSuccess(message: ReactNode): void {
  clearErrors();
  replace('success', message, 'teal', SUCCESS_AUTO_CLOSE_MS);
}

/** Takes the error alert away (a form the person corrected, a save that went through). */
export function clearErrors(): void {
  if (showing.error) notifications.hide(showing.error);
  forget('error');
}
