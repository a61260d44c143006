import type { StateSection } from '../events/state.js';
import { groupSettingForApi, realmGroupSetting } from '../lib/groups/groups.js';
import { realmIconFields } from '../lib/realm/icon.js';
import { realmRegisterFields, userDefaultsRegisterFields, VIDEO_CHAT_PROVIDERS } from '../lib/realm/settings.js';
import { LIMITS } from '../version.js';

/** `realm`: organization settings and the limits clients enforce. */
const realmSection: StateSection = {
  wants: ['realm'],
  fetch({ app, baseUrl }) {
    const realm = app.store.realm.data.realm!;
    const icon = realmIconFields(realm);
    return {
      // name, description (raw Markdown, as Zulip's settings page edits it), public access, video calls...
      ...realmRegisterFields(realm),
      realm_url: baseUrl,
      realm_uri: baseUrl,
      realm_date_created: realm.date_created,
      realm_icon_url: icon.icon_url,
      realm_icon_source: icon.icon_source,
      realm_available_video_chat_providers: VIDEO_CHAT_PROVIDERS,
      // Hearth's own: an organization made by `hearth demo` (pages say so).
      hearth_demo_organization: realm.demo === true,
      max_file_upload_size_mib: realm.settings.max_file_upload_size_mib,
      max_stream_name_length: LIMITS.max_stream_name_length,
      max_stream_description_length: LIMITS.max_stream_description_length,
      max_topic_length: LIMITS.max_topic_length,
      max_message_length: LIMITS.max_message_length,
      max_channel_folder_name_length: LIMITS.max_channel_folder_name_length,
      max_channel_folder_description_length: LIMITS.max_channel_folder_description_length,
      max_user_group_name_length: LIMITS.max_user_group_name_length,
      realm_can_create_groups: groupSettingForApi(realmGroupSetting(app, 'can_create_groups'), app),
      realm_can_manage_all_groups: groupSettingForApi(realmGroupSetting(app, 'can_manage_all_groups'), app),
      realm_can_access_all_users_group: groupSettingForApi(realmGroupSetting(app, 'can_access_all_users_group'), app),
      realm_direct_message_permission_group: groupSettingForApi(realmGroupSetting(app, 'direct_message_permission_group'), app),
      realm_direct_message_initiator_group: groupSettingForApi(realmGroupSetting(app, 'direct_message_initiator_group'), app),
      realm_can_mention_many_users_group: groupSettingForApi(realmGroupSetting(app, 'can_mention_many_users_group'), app),
      ...Object.fromEntries(
        (
          [
            'can_delete_any_message_group',
            'can_delete_own_message_group',
            'can_move_messages_between_topics_group',
            'can_move_messages_between_channels_group',
            'can_resolve_topics_group',
            'can_add_custom_emoji_group',
            'create_multiuse_invite_group',
          ] as const
        ).map((name) => [`realm_${name}`, groupSettingForApi(realmGroupSetting(app, name), app)]),
      ),
    };
  },
};

/**
 * `realm_user_settings_defaults`: Hearth keeps these user settings organization-wide (one
 * value for everyone), so the defaults are also every user's value.
 */
const realmUserDefaultsSection: StateSection = {
  wants: ['realm_user_settings_defaults'],
  fetch({ app }) {
    return { realm_user_settings_defaults: userDefaultsRegisterFields(app.store.realm.data.realm!) };
  },
};

export const sections = [realmSection, realmUserDefaultsSection];
