import type { StateSection } from '../events/state.js';
import { botDomain, botsAdministeredBy, formatBot } from '../lib/bots.js';

/**
 * `realm_bots`: the bots the requester administers (every bot for administrators,
 * their own otherwise), active and deactivated, as Zulip's get_owned_bot_dicts.
 */
export const botsSection: StateSection = {
  types: ['realm_bot'],
  fetch: ({ app, user }) => ({
    realm_bots: user && !user.is_bot ? botsAdministeredBy(app, user).map((b) => formatBot(app, b)) : [],
  }),
};

/** `realm_bot_domain` of the `realm` section: the domain of new bots' emails. */
export const botDomainSection: StateSection = {
  types: ['realm'],
  fetch: ({ app }) => ({ realm_bot_domain: botDomain(app) }),
};
