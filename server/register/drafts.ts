import type { StateSection } from '../events/state.js';
import { draftsOf, formatDraft } from '../lib/messages/drafts.js';

const draftsSection: StateSection = {
  wants: ['drafts'],
  fetch: ({ app, user }) => ({ drafts: user ? draftsOf(app, user.id).map(formatDraft) : [] }),
};

export const sections = [draftsSection];
