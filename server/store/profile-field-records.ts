/** The organization's custom profile fields (`profile_fields.json`). */

/** Custom profile field types (Zulip's ids). */
export const PROFILE_FIELD_TYPE = {
  SHORT_TEXT: 1,
  LONG_TEXT: 2,
  SELECT: 3,
  DATE: 4,
  URL: 5,
  USER: 6,
  EXTERNAL_ACCOUNT: 7,
  PRONOUNS: 8,
} as const;

export interface ProfileFieldRecord {
  id: number;
  type: number;
  order: number;
  name: string;
  hint: string;
  /** JSON text: select choices, or an external account's subtype and URL pattern; '' otherwise. */
  field_data: string;
  display_in_profile_summary: boolean;
  required: boolean;
  editable_by_user: boolean;
  use_for_user_matching: boolean;
}

export interface ProfileFieldsDoc {
  nextId: number;
  fields: ProfileFieldRecord[];
}
