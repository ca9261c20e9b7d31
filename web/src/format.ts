import type { Link } from './api';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export const formatDate = (iso: string): string => dateFormat.format(new Date(iso));
export const formatDateTime = (iso: string): string => dateTimeFormat.format(new Date(iso));

/** What a link's row says of it: disabled by the administrator, expired, protected, or live. */
export function linkStatus(link: Pick<Link, 'suspended' | 'expiresAt' | 'hasPassword'>): { kind: string; text: string } {
  if (link.suspended) return { kind: 'bad', text: 'Disabled' };
  if (link.expiresAt !== null && Date.parse(link.expiresAt) <= Date.now()) return { kind: 'bad', text: 'Expired' };
  if (link.hasPassword) return { kind: 'note', text: 'Password' };
  return { kind: 'good', text: 'Active' };
}

/** An ISO timestamp as the value of a datetime-local input (the browser's time zone), and back. */
export function toLocalInput(iso: string | null): string {
  if (iso === null) return '';
  const date = new Date(iso);
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

export const fromLocalInput = (value: string): string => new Date(value).toISOString();
