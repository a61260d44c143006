/** Shapes of what Hearth keeps on disk, one interface per stored record. */

export interface Manifest {
  schemaVersion: number;
  createdAt: string;
}

export interface RealmSettings {
  /** Organization-level "public access" (spectators): off by default. */
  enable_spectator_access: boolean;
  /** 1 everyone, 2 members, 3 admins, 4 nobody, 5 moderators (Zulip's values). */
  email_address_visibility: number;
  max_file_upload_size_mib: number;
  /** Domain of the API-only addresses (`user{id}@domain`) shown when a real email is hidden. */
  fake_email_domain: string;
}

export const DEFAULT_REALM_SETTINGS: RealmSettings = {
  enable_spectator_access: false,
  email_address_visibility: 1,
  max_file_upload_size_mib: 25,
  fake_email_domain: 'hearth.local',
};

export interface RealmRecord {
  id: number;
  name: string;
  description: string;
  /** Unix seconds. */
  date_created: number;
  settings: RealmSettings;
}

export interface RealmDoc {
  realm: RealmRecord | null;
}

export const ROLE = { OWNER: 100, ADMIN: 200, MODERATOR: 300, MEMBER: 400, GUEST: 600 } as const;
export type Role = (typeof ROLE)[keyof typeof ROLE];

export interface UserRecord {
  id: number;
  /** The real (delivery) email address; also the login. */
  email: string;
  full_name: string;
  role: Role;
  is_active: boolean;
  is_bot: boolean;
  bot_type: number | null;
  bot_owner_id: number | null;
  api_key: string;
  /** `scrypt$<N>$<salt b64>$<hash b64>`, or null for accounts that cannot log in with a password. */
  password_hash: string | null;
  /** ISO 8601 with offset. */
  date_joined: string;
  timezone: string;
  avatar_version: number;
  is_imported_stub: boolean;
}

export interface UsersDoc {
  nextId: number;
  users: UserRecord[];
}

export type DraftType = '' | 'stream' | 'private';

export interface DraftRecord {
  id: number;
  user_id: number;
  type: DraftType;
  to: number[];
  topic: string;
  content: string;
  /** Unix seconds of the last edit. */
  timestamp: number;
}

export interface DraftsDoc {
  nextId: number;
  drafts: DraftRecord[];
}
