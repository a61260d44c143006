import type { StateSection } from '../events/state.js';
import { legacyMutedTopics } from '../lib/topics/visibility.js';

/** `user_topics`: the user's topic visibility policies (server/lib/topics/visibility.ts). */
const userTopicsSection: StateSection = {
  wants: ['user_topic'],
  fetch: ({ user }) => (user ? { user_topics: (user.user_topics ?? []).map((t) => ({ ...t })) } : {}),
};

/** The legacy `muted_topics`: left out when a client that lists what it wants also wants `user_topic` (as Zulip). */
const mutedTopicsSection: StateSection = {
  wants: ['muted_topics'],
  alsoWhen: (want) => want.all || !want('user_topic'),
  fetch: ({ app, user }) => (user ? { muted_topics: legacyMutedTopics(app, user) } : {}),
};

export const sections = [userTopicsSection, mutedTopicsSection];
