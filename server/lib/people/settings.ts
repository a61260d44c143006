/**
 * Personal settings (Zulip's UserBaseSettings property_types): each with its
 * type, allowed values and Zulip's default. A user's record keeps only what
 * they changed. Every client gets them as `user_settings` (register) and
 * `user_settings` events: since Zulip 12 (feature level 439) the legacy top-level
 * register keys and `update_display_settings` / `update_global_notifications`
 * events are gone, and the `user_settings_object` capability has no effect.
 */
import type { App } from '../../context.js';
import { errors } from '../../errors.js';
import type { UserRecord } from '../../store/records.js';
import { EMAIL_VISIBILITY } from './people.js';

type Spec =
  | { type: 'bool'; default: boolean; nullable?: true }
  | { type: 'int'; default: number; values?: number[]; min?: number; max?: number }
  | { type: 'string'; default: string; values?: string[]; pattern?: RegExp };

const bool = (d: boolean): Spec => ({ type: 'bool', default: d });
const oneOf = (d: number, values: number[]): Spec => ({ type: 'int', default: d, values });
const str = (d: string, values?: string[]): Spec => ({ type: 'string', default: d, ...(values ? { values } : {}) });

/** A language code as Zulip's default_language takes one (`en`, `pt-BR`, `zh-Hans`). */
export const LANGUAGE_CODE = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/;

export const NOTIFICATION_SOUNDS = ['zulip', 'ding', 'chime-up', 'chime-down', 'clarinet', 'drumroll', 'none'];
export const EMOJISETS = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
];

/** Display settings (legacy `update_display_settings`); the rest are notification settings. */
const DISPLAY: Record<string, Spec> = {
  twenty_four_hour_time: bool(false),
  web_mark_read_on_scroll_policy: oneOf(1, [1, 2, 3]),
  web_channel_default_view: oneOf(1, [1, 2, 3, 4]),
  starred_message_counts: bool(true),
  receives_typing_notifications: bool(true),
  web_suggest_update_timezone: bool(true),
  fluid_layout_width: bool(false),
  high_contrast_mode: bool(false),
  web_font_size_px: { type: 'int', default: 16, min: 12, max: 20 },
  web_line_height_percent: { type: 'int', default: 140, min: 122, max: 158 },
  color_scheme: oneOf(1, [1, 2, 3]),
  translate_emoticons: bool(false),
  display_emoji_reaction_users: bool(true),
  default_language: { type: 'string', default: 'en', pattern: LANGUAGE_CODE },
  // Zulip 12 (feature level 454) calls the recent-conversations view "recent" (was "recent_topics", still read).
  web_home_view: str('inbox', ['recent', 'inbox', 'all_messages']),
  web_escape_navigates_to_home_view: bool(true),
  left_side_userlist: bool(false),
  emojiset: str('google', EMOJISETS.map((e) => e.key)),
  demote_inactive_streams: oneOf(1, [1, 2, 3]),
  user_list_style: oneOf(2, [1, 2, 3]),
  web_animate_image_previews: str('on_hover', ['always', 'on_hover', 'never']),
  web_stream_unreads_count_display_policy: oneOf(2, [1, 2, 3]),
  hide_ai_features: bool(false),
  web_left_sidebar_show_channel_folders: bool(true),
  // Zulip 12 (feature level 431): channel folders in the inbox view.
  web_inbox_show_channel_folders: bool(true),
  web_left_sidebar_unreads_count_summary: bool(true),
  web_navigate_to_sent_message: bool(true),
};

const NOTIFICATIONS: Record<string, Spec> = {
  // Hearth's organization-wide default (Zulip's is false, and an organization may set its own): Enter
  // sends, as in most chat products; Ctrl+Enter always sends, Shift+Enter adds a line.
  enter_sends: bool(true),
  enable_drafts_synchronization: bool(true),
  enable_stream_desktop_notifications: bool(false),
  enable_stream_email_notifications: bool(false),
  enable_stream_push_notifications: bool(false),
  enable_stream_audible_notifications: bool(false),
  notification_sound: str('zulip', NOTIFICATION_SOUNDS),
  enable_desktop_notifications: bool(true),
  enable_sounds: bool(true),
  enable_followed_topic_desktop_notifications: bool(true),
  enable_followed_topic_email_notifications: bool(true),
  enable_followed_topic_push_notifications: bool(true),
  enable_followed_topic_audible_notifications: bool(true),
  email_notifications_batching_period_seconds: { type: 'int', default: 120, min: 120, max: 7 * 86_400 },
  enable_offline_email_notifications: bool(true),
  enable_offline_push_notifications: bool(true),
  enable_online_push_notifications: bool(true),
  enable_digest_emails: bool(true),
  enable_marketing_emails: bool(true),
  enable_login_emails: bool(true),
  message_content_in_email_notifications: bool(true),
  pm_content_in_desktop_notifications: bool(true),
  wildcard_mentions_notify: bool(true),
  enable_followed_topic_wildcard_mentions_notify: bool(true),
  // 1 all unreads, 2 DMs, mentions and followed topics, 3 DMs and mentions, 4 none (feature level 227).
  desktop_icon_count_display: oneOf(1, [1, 2, 3, 4]),
  realm_name_in_email_notifications_policy: oneOf(1, [1, 2, 3]),
  automatically_follow_topics_policy: oneOf(3, [1, 2, 3, 4]),
  automatically_unmute_topics_in_muted_streams_policy: oneOf(2, [1, 2, 3, 4]),
  automatically_follow_topics_where_mentioned: bool(true),
  resolved_topic_notice_auto_read_policy: str('except_followed', ['always', 'except_followed', 'never']),
  presence_enabled: bool(true),
  send_private_typing_notifications: bool(true),
  send_stream_typing_notifications: bool(true),
  send_read_receipts: bool(true),
  allow_private_data_export: bool(false),
};

export const USER_SETTINGS: Record<string, Spec> = { ...DISPLAY, ...NOTIFICATIONS };
export const isDisplaySetting = (name: string) => Object.hasOwn(DISPLAY, name);
export const isNotificationSetting = (name: string) => Object.hasOwn(NOTIFICATIONS, name);

/** A user's value of a setting (stored, or Zulip's default). */
export function userSetting(app: App, user: UserRecord, name: string): unknown {
  if (name === 'timezone') return user.timezone;
  if (name === 'email_address_visibility') {
    return app.store.realm.data.realm?.settings.email_address_visibility ?? EMAIL_VISIBILITY.EVERYONE;
  }
  const stored = user.user_settings?.[name];
  if (name === 'web_home_view' && stored === 'recent_topics') return 'recent';
  return stored !== undefined ? stored : USER_SETTINGS[name]?.default;
}

/** Every setting as the `user_settings` register object shows it; a spectator (null) sees the defaults. */
export function userSettingsObject(app: App, user: UserRecord | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const anyone = user ?? ({ timezone: '' } as UserRecord);
  for (const name of Object.keys(USER_SETTINGS)) out[name] = userSetting(app, anyone, name);
  out.timezone = anyone.timezone;
  out.email_address_visibility = userSetting(app, anyone, 'email_address_visibility');
  out.available_notification_sounds = NOTIFICATION_SOUNDS.filter((s) => s !== 'none');
  out.emojiset_choices = EMOJISETS;
  return out;
}

/** Validates a raw parameter for a setting (JSON for booleans and integers, raw or JSON for strings). */
export function parseSetting(name: string, raw: string): unknown {
  if (name === 'timezone') {
    const tz = raw.replace(/^"(.*)"$/, '$1');
    if (tz !== '' && !isTimezone(tz)) throw errors.badRequest(`Invalid timezone '${tz}'`);
    return tz;
  }
  const spec = USER_SETTINGS[name]!;
  if (spec.type === 'string') {
    const given = raw.startsWith('"') ? (JSON.parse(raw) as unknown) : raw;
    if (typeof given !== 'string') throw errors.badRequest(`${name} is not a string`);
    const value = name === 'web_home_view' && given === 'recent_topics' ? 'recent' : given;
    if ((spec.values && !spec.values.includes(value)) || (spec.pattern && !spec.pattern.test(value))) throw errors.badRequest(`Invalid ${name}`);
    return value;
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw errors.badRequest(`Argument "${name}" is not valid JSON.`);
  }
  if (spec.type === 'bool') {
    if (typeof value !== 'boolean') throw errors.badRequest(`${name} is not a boolean`);
    return value;
  }
  if (typeof value !== 'number' || !Number.isInteger(value)) throw errors.badRequest(`${name} is not an integer`);
  if (spec.values && !spec.values.includes(value)) throw errors.badRequest(`Invalid ${name}`);
  if ((spec.min !== undefined && value < spec.min) || (spec.max !== undefined && value > spec.max)) {
    throw errors.badRequest(`Invalid ${name}`);
  }
  return value;
}

function isTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
