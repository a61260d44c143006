/**
 * What the web client asks `POST /register` for (events.ts; the store tests register with the same):
 * the state it keeps, the events that keep it current, and Zulip's client capabilities.
 */

const FETCH = [
  'message', 'update_message_flags', 'realm', 'realm_user', 'subscription', 'stream', 'user_topic',
  'presence', 'user_settings', 'typing', 'reaction', 'update_message', 'delete_message', 'recent_private_conversations',
  'drafts', 'scheduled_messages', 'reminders', 'realm_user_groups', 'realm_emoji',
  'user_status', 'custom_profile_fields', 'muted_users', 'alert_words', 'channel_folders', 'channel_folder',
];

export const REGISTER_PARAMS = {
  apply_markdown: true,
  client_gravatar: false,
  include_subscribers: false,
  slim_presence: true,
  fetch_event_types: FETCH,
  // Submessages (poll and to-do events) have no initial state: messages carry theirs; nor have calls' events (chat/calls/).
  event_types: [...FETCH, 'submessage', 'hearth_call'],
  client_capabilities: {
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: false,
    stream_typing_notifications: true,
    user_settings_object: true,
    simplified_presence_events: true,
  },
} as const;
