/** A person as clients get them (register's `realm_users`, `realm_user` events): Zulip's member object. */

/** A custom profile field's value, rendered for fields that take Markdown. */
export interface ProfileDataValue {
  value: string;
  rendered_value?: string;
}

export interface User {
  user_id: number;
  full_name: string;
  email: string;
  /** The real address, where the viewer may see it; null otherwise. */
  delivery_email?: string | null;
  avatar_url: string | null;
  avatar_version?: number;
  is_active: boolean;
  is_bot: boolean;
  is_owner?: boolean;
  is_admin?: boolean;
  is_guest?: boolean;
  role: number;
  /** IANA time zone ('' unknown). */
  timezone?: string;
  date_joined?: string;
  is_imported_stub?: boolean;
  is_deleted?: boolean;
  bot_type?: number | null;
  bot_owner_id?: number | null;
  /** Custom profile field values by field ID. */
  profile_data?: Record<string, ProfileDataValue>;
}

/** A change of one custom profile field's value in a `realm_user` update (null: removed). */
export interface ProfileFieldValueChange {
  id: number;
  value: string | null;
  rendered_value?: string;
}

/** A custom profile field of the organization (`custom_profile_fields`). */
export interface ProfileField {
  id: number;
  name: string;
  type: number;
  hint: string;
  field_data: string;
  order: number;
  required: boolean;
  editable_by_user: boolean;
  use_for_user_matching: boolean;
  /** Present (true) only for the fields shown in profile summaries. */
  display_in_profile_summary?: true;
}

/** A user's status (`user_status`): text and emoji, empty strings when cleared. */
export interface UserStatus {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

/** Presence in Zulip's slim form (seconds). */
export interface PresenceTimes {
  active_timestamp: number;
  idle_timestamp: number;
}
