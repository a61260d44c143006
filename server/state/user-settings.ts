import type { StateSection } from '../events/state.js';
import { userSettingsObject } from '../lib/user-settings.js';

/**
 * `user_settings`: one object for every client (as Zulip's
 * fetch_initial_state_data); clients without `user_settings_object` also get
 * each setting as a top-level key, as before feature level 89.
 */
export const userSettingsSection: StateSection = {
  types: ['user_settings', 'update_display_settings', 'update_global_notifications'],
  fetch({ app, user, queue }) {
    if (!user) return {};
    const settings = userSettingsObject(app, user);
    return queue.clientCapabilities.user_settings_object === true ? { user_settings: settings } : { ...settings, user_settings: settings };
  },
};
