import type { StateSection } from '../events/state.js';
import { groupSettingForApi, realmGroupSetting } from '../lib/groups.js';
import { renderPlainDescription } from '../lib/text.js';
import { LIMITS } from '../version.js';

/** `realm`: organization settings and the limits clients enforce. */
export const realmSection: StateSection = {
  types: ['realm'],
  fetch({ app, baseUrl }) {
    const realm = app.store.realm.data.realm!;
    return {
      realm_name: realm.name,
      realm_description: renderPlainDescription(realm.description),
      realm_url: baseUrl,
      realm_uri: baseUrl,
      realm_date_created: realm.date_created,
      realm_icon_url: `${baseUrl}/static/hearth-icon.png`,
      realm_icon_source: 'D',
      realm_email_address_visibility: realm.settings.email_address_visibility,
      realm_enable_spectator_access: realm.settings.enable_spectator_access,
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
    };
  },
};
