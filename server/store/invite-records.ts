/** Invite links (`invites.json`). */
import type { Role } from './user-records.js';

/** A reusable invite link (Zulip's MultiuseInvite): anyone with the link may create an account. */
export interface InviteRecord {
  id: number;
  /** The secret in the link (`/join/<key>/`). */
  key: string;
  invited_by: number;
  /** Unix seconds. */
  created: number;
  /** Unix seconds; null: never expires. */
  expires: number | null;
  role: Role;
  stream_ids: number[];
  include_realm_default_subscriptions: boolean;
  /** Accounts created with it. */
  used: number;
}

export interface InvitesDoc {
  nextId: number;
  invites: InviteRecord[];
}
