import type { StateSection } from '../events/state.js';
import { playgroundsForApi } from '../lib/realm/playgrounds.js';

/** `realm_playgrounds`: the organization's code playgrounds (server/lib/realm/playgrounds.ts). */
const playgroundsSection: StateSection = {
  wants: ['realm_playgrounds'],
  fetch: ({ app }) => ({ realm_playgrounds: playgroundsForApi(app) }),
};

export const sections = [playgroundsSection];
