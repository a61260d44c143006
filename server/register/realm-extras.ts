/**
 * Register keys Zulip clients read that describe features Hearth keeps simple:
 * no waiting period for new members, the default external
 * account types for profile fields, the wildcard-mention policy derived from
 * `can_mention_many_users_group` (linkifiers: server/register/linkifiers.ts; code playgrounds:
 * server/register/playgrounds.ts; custom emoji: server/register/realm-emoji.ts). `server_emoji_data_url`
 * points at Hearth's own emoji data (server/views/emoji-data.ts), so clients never fetch
 * it from the internet.
 */
import type { StateSection } from '../events/state.js';
import { realmGroupSetting } from '../lib/groups/groups.js';
import { own } from '../lib/own.js';

/** Zulip's DEFAULT_EXTERNAL_ACCOUNTS. */
const DEFAULT_EXTERNAL_ACCOUNTS = {
  github: { text: 'GitHub', url_pattern: 'https://github.com/%(username)s', name: 'GitHub', hint: 'Enter your GitHub username' },
  twitter: { text: 'Twitter', url_pattern: 'https://twitter.com/%(username)s', name: 'Twitter', hint: 'Enter your Twitter username' },
};

/** Zulip's WildcardMentionPolicyEnum values by the system group now holding the permission. */
const WILDCARD_POLICY: Record<string, number> = {
  'role:everyone': 1,
  'role:members': 2,
  'role:fullmembers': 3,
  'role:administrators': 5,
  'role:nobody': 6,
  'role:moderators': 7,
};

const EMOJI_DATA_PATH = '/static/generated/emoji/emoji_api.json';

const realmExtrasSection: StateSection = {
  wants: ['realm'],
  fetch({ app, baseUrl }) {
    const setting = realmGroupSetting(app, 'can_mention_many_users_group');
    const group = typeof setting === 'number' ? app.store.groups.data.groups.find((g) => g.id === setting) : undefined;
    return {
      realm_wildcard_mention_policy: (group && own(WILDCARD_POLICY, group.name)) ?? 5,
      realm_waiting_period_threshold: 0,
      realm_default_external_accounts: DEFAULT_EXTERNAL_ACCOUNTS,
      server_emoji_data_url: `${baseUrl}${EMOJI_DATA_PATH}`,
      // Zulip 11 (feature level 397): above this many newly subscribed people, no Notification Bot notices.
      max_bulk_new_subscription_messages: 100,
    };
  },
};

export const sections = [realmExtrasSection];
