/**
 * When a reservation can be checked in (decision 016): from
 * `check_in_opens_minutes` before the class starts until
 * `check_in_closes_minutes` after it ends. The desk applies it offline with
 * the settings it keeps from the server, the server again with the check-in's
 * own time (`at`), so an offline check-in sent hours later is judged by when
 * it happened.
 */
export interface CheckInWindowSettings {
  check_in_opens_minutes: string;
  check_in_closes_minutes: string;
}

export interface CheckInWindow {
  opensAt: Date;
  closesAt: Date;
}

const minutes = (value: string, fallback: number) => {
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
};

export function checkInWindow(classDate: Date, durationMinutes: number, settings: CheckInWindowSettings): CheckInWindow {
  const start = classDate.getTime();
  return {
    opensAt: new Date(start - minutes(settings.check_in_opens_minutes, 60) * 60_000),
    closesAt: new Date(start + (durationMinutes + minutes(settings.check_in_closes_minutes, 30)) * 60_000),
  };
}

/** 'too-early' or 'too-late' when `at` falls outside the window; null inside it (both ends included). */
export function checkInTiming(at: Date, window: CheckInWindow): 'too-early' | 'too-late' | null {
  if (at.getTime() < window.opensAt.getTime()) return 'too-early';
  if (at.getTime() > window.closesAt.getTime()) return 'too-late';
  return null;
}
