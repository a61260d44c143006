import type { StateSection } from '../events/state.js';
import { incomingWebhookBots } from '../webhooks/registry.js';

/**
 * Register sections for Zulip features Hearth does not have, answered with the values a
 * Zulip server without them sends, so a client that asks finds its keys:
 * no onboarding tours, no allowed-domain list (accounts come from administrators and
 * invite links), no billing, no embedded bots, no default channel groups, no stop-word list for search, no Zoom, no GIPHY.
 */
const EMPTY: [string, Record<string, unknown>][] = [
  ['onboarding_steps', { onboarding_steps: [], navigation_tour_video_url: null }],
  ['realm_domains', { realm_domains: [] }],
  ['realm_billing', { realm_billing: { has_pending_sponsorship_request: false } }],
  ['realm_embedded_bots', { realm_embedded_bots: [] }],
  ['default_stream_groups', { realm_default_stream_groups: [] }],
  ['stop_words', { stop_words: [] }],
  ['video_calls', { has_zoom_token: false }],
  ['giphy', { giphy_api_key: '' }],
];

export const sections: StateSection[] = [
  ...EMPTY.map(([want, keys]) => ({
    wants: [want],
    fetch: () => structuredClone(keys),
  })),
  // The incoming-webhook integrations Hearth serves (server/webhooks/registry.ts).
  { wants: ['realm_incoming_webhook_bots'], fetch: () => ({ realm_incoming_webhook_bots: incomingWebhookBots() }) },
];
