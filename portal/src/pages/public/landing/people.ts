import type { InstructorOutput } from '@estudio/core';

export const fullName = (person: { name: string; last_name?: string | null }) => [person.name, person.last_name].filter(Boolean).join(' ');

export const initials = (person: { name: string; last_name?: string | null }) =>
  [person.name, person.last_name]
    .filter(Boolean)
    .map((part) => part!.trim().charAt(0).toUpperCase())
    .join('');

const monthNames = ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'];

/**
 * Spec: an instructor's birthdate shows as day and month only ('14 de marzo').
 * The public API sends it without the year ('--03-14'); staff read '1989-03-14'.
 */
export function birthdayDayMonth(birthdate: string | null): string | null {
  const match = birthdate ? /^(?:\d{4}|-)-(\d{2})-(\d{2})/.exec(birthdate) : null;
  if (!match) return null;
  const month = monthNames[Number(match[1]) - 1];
  return month ? `${Number(match[2])} de ${month}` : null;
}

/** An instagram handle or URL as a link. */
export function instagramUrl(value: string): string {
  const trimmed = value.trim();
  if (/^https?:\/\//.test(trimmed)) return trimmed;
  return `https://instagram.com/${trimmed.replace(/^@/, '')}`;
}

export const instagramHandle = (value: string) => `@${value.trim().replace(/^https?:\/\/(www\.)?instagram\.com\//, '').replace(/^@/, '').replace(/\/$/, '')}`;

export type Instructor = InstructorOutput;
