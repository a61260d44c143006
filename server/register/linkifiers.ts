import type { App } from '../context.js';
import type { StateSection } from '../events/state.js';
import { linkifiersForApi } from '../lib/realm/linkifiers.js';

/**
 * `realm_linkifiers`: only for clients with the `linkifier_url_template` capability
 * (Zulip, feature level 176: others get an empty list, since they cannot read URL templates).
 */
const linkifiersSection: StateSection = {
  wants: ['realm_linkifiers'],
  fetch: ({ app, queue }) => ({ realm_linkifiers: queue.clientCapabilities.linkifier_url_template === true ? linkifiersForApi(app) : [] }),
};

/** `realm_filters`: the pre-template form, always empty since Zulip 7 (feature level 176). */
const legacyLinkifiersSection: StateSection = {
  wants: ['realm_filters'],
  fetch: () => ({ realm_filters: [] }),
};

export const sections = [linkifiersSection, legacyLinkifiersSection];

/** `realm_linkifiers` events reach only clients that read URL templates (as register's list). */
export function filters(app: App): void {
  app.events.addFilter('realm_linkifiers', (queue, event) => (queue.capability('linkifier_url_template') ? event : null));
}
