/**
 * Addresses and names no account may take: the system bots' (an account called
 * `notification-bot@zulip.com`, or named "Notification Bot", passed for the bot in every
 * client) and the organization's own address domain (`fake_email_domain`), where bots live
 * and where `user{id}@…` stands in for hidden addresses (an account holding
 * `user1@hearth.local` received what was written to the owner). Checked at every account
 * creation (setup, invitations, administrators, the command line) and email change.
 */
import type { App } from '../../context.js';
import { errors } from '../../errors.js';
import { fakeDomain } from './people.js';
import { SYSTEM_BOTS } from './system-bots.js';

/** Zulip's cross-realm bots' addresses: Hearth's two, and the others Zulip's clients know. */
const SYSTEM_ADDRESSES: ReadonlySet<string> = new Set([
  ...Object.values(SYSTEM_BOTS).map((b) => b.email),
  'emailgateway@zulip.com',
  'feedback@zulip.com',
  'nagios-receive-bot@zulip.com',
  'nagios-send-bot@zulip.com',
  'reminder-bot@zulip.com',
]);

/**
 * A name as it looks: compatibility forms folded, case and spaces ignored, and every combining
 * mark and default-ignorable character dropped (accents, variation selectors, the grapheme
 * joiner: "Notification Bot" followed by U+034F or U+FE0F reads as the bot's name).
 */
const foldName = (name: string): string =>
  name.normalize('NFKD').replace(/[\p{M}\p{Default_Ignorable_Code_Point}]/gu, '').toLowerCase().replace(/\s+/g, '');

/** Whether `email` is a system bot's (Zulip's cross-realm bots: every Zulip server has its own). */
export const isSystemBotAddress = (email: string): boolean => SYSTEM_ADDRESSES.has(foldAddress(email));

/** An address as it reads: compatibility forms (fullwidth letters) folded, case ignored. */
const foldAddress = (email: string): string => email.trim().normalize('NFKC').toLowerCase();

/** Why `email` cannot be an account's address, or null when it can. */
export function reservedEmailReason(app: App | null, email: string): string | null {
  const e = foldAddress(email);
  if (isSystemBotAddress(e)) return `'${email}' is reserved for system bots.`;
  const domain = fakeDomain(app).toLowerCase();
  if (e.endsWith(`@${domain}`)) return `Addresses at ${domain} are reserved for bots and hidden addresses.`;
  return null;
}

/** Refuses a reserved address for a person's account (400, as Zulip's invalid email). */
export function checkEmailNotReserved(app: App, email: string): void {
  const reason = reservedEmailReason(app, email);
  if (reason) throw errors.badRequest(reason);
}

/** Whether a display name would pass for a system bot's. */
export const isReservedName = (name: string): boolean => SYSTEM_NAMES.has(foldName(name));

/** The system bots' names, folded. */
const SYSTEM_NAMES: ReadonlySet<string> = new Set(Object.values(SYSTEM_BOTS).map((b) => foldName(b.name)));
