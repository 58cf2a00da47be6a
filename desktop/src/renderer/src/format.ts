import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { defaultStudioTimeZone, texts } from '@estudio/core';

dayjs.extend(utc);
dayjs.extend(timezone);

const t = texts.desk;
/** Times are the studio's wall clock, whatever the zone of the desk's computer. */
const local = (iso: string) => dayjs(iso).tz(defaultStudioTimeZone);

export const timeOf = (iso: string) => local(iso).format('HH:mm');
export const dayOf = (iso: string) => local(iso).format('dddd D [de] MMMM');
export const dateTimeOf = (iso: string) => local(iso).format('ddd D MMM YYYY, HH:mm');
export const dateOf = (iso: string) => local(iso).format('D MMM YYYY');

/** 'sábado 21 de noviembre' → 'Sábado 21 de noviembre' (Spanish capitalises only the first word). */
export const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export const pendingText = (n: number) => (n === 1 ? t.pendingOne : t.pendingMany.replace('{n}', String(n)));

export const purchaseStatusText: Record<string, string> = {
  active: t.statusActive,
  completed: t.statusCompleted,
  pending: t.statusPending,
  failed: t.statusFailed,
  cancelled: t.statusCancelled,
  revoked: t.statusRevoked,
};

/** '$1,250.00' from the server's numeric string, without a float. */
export function money(amount: string): string {
  const [whole = '0', cents = '00'] = amount.split('.');
  return `$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents.padEnd(2, '0').slice(0, 2)}`;
}

/** A tRPC error's Spanish message (the desk router sends DomainError messages). */
export function errorText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Algo salió mal. Inténtalo de nuevo.';
}
