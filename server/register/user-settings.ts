import type { StateSection } from '../events/state.js';
import { userSettingsObject } from '../lib/people/settings.js';

/**
 * `user_settings`: one object for every client, spectators included (Zulip's defaults).
 * Since Zulip 12 (feature level 439) no setting is repeated at the top level, whatever
 * `user_settings_object` says.
 */
const userSettingsSection: StateSection = {
  wants: ['user_settings'],
  fetch: ({ app, user }) => ({ user_settings: userSettingsObject(app, user) }),
};

export const sections = [userSettingsSection];
