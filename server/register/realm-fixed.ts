import type { StateSection } from '../events/state.js';
import { MIN_PASSWORD_LENGTH } from '../auth/secrets.js';
import { systemGroupId } from '../lib/groups/groups.js';
import { MAX_AVATAR_BYTES } from '../lib/people/avatar.js';
import { REPORT_REASONS } from '../lib/messages/reports.js';
import { DEFAULT_ICON_URL, MAX_ICON_BYTES } from '../lib/realm/icon.js';
import { MAX_REMINDER_NOTE_LENGTH } from '../lib/messages/scheduled.js';
import { serverThumbnailFormats } from '../lib/uploads/thumbnails.js';

const MiB = 1024 * 1024;

/**
 * Organization keys of Zulip's register (want("realm")) for settings Hearth does not
 * offer, with the value that describes what Hearth does: password logins only, accounts
 * by administrators and invite links (no sign-up, no email), no digests, welcome emails,
 * push notifications, GIPHY, AI summaries, billing or logos, no link previews. Clients read these to decide what to show.
 */
const realmFixedSection: StateSection = {
  wants: ['realm'],
  fetch({ app }) {
    const realm = app.store.realm.data.realm!;
    const nobody = systemGroupId(app, 'role:nobody');
    return {
      realm_authentication_methods: { Email: { enabled: true, available: true } },
      realm_email_auth_enabled: true,
      realm_password_auth_enabled: true,
      realm_invite_required: true,
      realm_emails_restricted_to_domains: false,
      realm_disallow_disposable_email_addresses: true,
      realm_can_invite_users_group: nobody,
      realm_send_welcome_emails: false,
      realm_digest_emails_enabled: false,
      realm_digest_weekday: 1,
      settings_send_digest_emails: false,
      realm_message_content_allowed_in_email_notifications: true,
      realm_avatar_changes_disabled: false,
      realm_name_changes_disabled: false,
      realm_email_changes_disabled: false,
      server_avatar_changes_disabled: false,
      server_name_changes_disabled: false,
      realm_require_unique_names: false,
      realm_message_edit_history_visibility_policy: realm.settings.allow_edit_history === false ? 'none' : 'all',
      realm_inline_image_preview: true,
      realm_inline_url_embed_preview: false,
      server_inline_image_preview: true,
      server_inline_url_embed_preview: false,
      // Zulip's default formats; uploaded images get them (lib/uploads/thumbnails.ts).
      server_thumbnail_formats: serverThumbnailFormats(),
      realm_push_notifications_enabled: false,
      realm_push_notifications_enabled_end_timestamp: null,
      realm_require_e2ee_push_notifications: false,
      realm_giphy_rating: 0,
      giphy_rating_options: { disabled: { name: 'GIPHY integration disabled', id: 0 } },
      realm_can_summarize_topics_group: nobody,
      server_can_summarize_topics: false,
      realm_can_manage_billing_group: nobody,
      realm_plan_type: 1,
      zulip_plan_is_not_limited: true,
      realm_want_advertise_in_communities_directory: false,
      realm_send_channel_events_messages: false,
      realm_owner_full_content_access: false,
      realm_signup_announcements_stream_id: -1,
      realm_zulip_update_announcements_stream_id: -1,
      realm_logo_url: DEFAULT_ICON_URL,
      realm_logo_source: 'D',
      realm_night_logo_url: DEFAULT_ICON_URL,
      realm_night_logo_source: 'D',
      upgrade_text_for_wide_organization_logo: '',
      max_avatar_file_size_mib: MAX_AVATAR_BYTES / MiB,
      max_icon_file_size_mib: MAX_ICON_BYTES / MiB,
      max_logo_file_size_mib: 0,
      max_reminder_note_length: MAX_REMINDER_NOTE_LENGTH,
      password_min_length: MIN_PASSWORD_LENGTH,
      password_max_length: 100,
      password_min_guesses: 0,
      server_report_message_types: Object.entries(REPORT_REASONS).map(([key, name]) => ({ key, name })),
      server_needs_upgrade: false,
      development_environment: false,
    };
  },
};

export const sections = [realmFixedSection];
