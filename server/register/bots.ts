import type { StateSection } from '../events/state.js';
import { botDomain, botsAdministeredBy, formatBot } from '../lib/people/bots.js';
import { systemGroupId } from '../lib/groups/groups.js';

/**
 * `realm_bots`: the bots the requester administers (every bot for administrators,
 * their own otherwise), active and deactivated, as Zulip's get_owned_bot_dicts.
 */
const botsSection: StateSection = {
  wants: ['realm_bot'],
  fetch: ({ app, user }) => ({
    realm_bots: user && !user.is_bot ? botsAdministeredBy(app, user).map((b) => formatBot(app, b)) : [],
  }),
};

/**
 * The `realm` section's bot fields: the domain of new bots' emails, and who may create
 * bots (Zulip's defaults, which Hearth applies: every member, not guests).
 */
const botDomainSection: StateSection = {
  wants: ['realm'],
  fetch: ({ app }) => ({
    realm_bot_domain: botDomain(app),
    realm_can_create_bots_group: systemGroupId(app, 'role:members'),
    realm_can_create_write_only_bots_group: systemGroupId(app, 'role:members'),
  }),
};

export const sections = [botsSection, botDomainSection];
