/**
 * `hearth-fixup.json`: what Zulip's Rocket.Chat converter drops or changes, written beside an
 * export so that `hearth zulip-fixup` can put it right over Zulip's REST API after the import.
 * People are named by email, channels by their name, never by Hearth IDs (the import makes new ones).
 */

export const FIXUP_FORMAT = 'hearth-zulip-fixup';
export const FIXUP_VERSION = 1;

export interface FixupFile {
  format: typeof FIXUP_FORMAT;
  version: typeof FIXUP_VERSION;
  /** ISO 8601: the instant the export shows. */
  exported_at: string;
  organization: { name: string; description: string };
  /** Zulip roles: 100 owner, 200 administrator, 300 moderator, 400 member, 600 guest. */
  users: { email: string; full_name: string; role: number; is_active: boolean; is_bot: boolean }[];
  profile_fields: {
    name: string;
    hint: string;
    field_type: number;
    field_data: string;
    display_in_profile_summary: boolean;
    required: boolean;
    editable_by_user: boolean;
  }[];
  /** Values by person and field name (users-type values as lists of emails). */
  profile_values: { email: string; field: string; value: string | string[] }[];
  channel_folders: { name: string; description: string }[];
  channels: { name: string; description: string; folder: string | null; is_archived: boolean }[];
  groups: { name: string; description: string; members: string[]; subgroups: string[] }[];
  /** The name each topic has after the converter, and its real name. */
  topics: { channel: string; imported: string; topic: string }[];
  /** What no step can bring back, for the closing summary. */
  not_restored: string[];
}

export const NOT_RESTORED = [
  'read and unread state',
  'stars',
  'drafts',
  'scheduled messages and reminders',
  'edit history',
  'passwords and API keys (people set a new password; bots get new keys)',
  'avatars and the organization icon',
  'personal settings, muted people and topics, user status, alert words',
  'bots stay deactivated',
  'linkifiers and code playgrounds',
  'links to messages (they hold Hearth message IDs)',
];
