import type { StateSection } from '../events/state.js';

const savedSnippetsSection: StateSection = {
  wants: ['saved_snippets'],
  fetch: ({ user }) => (user ? { saved_snippets: (user.saved_snippets ?? []).map((s) => ({ ...s })) } : {}),
};

const navigationViewsSection: StateSection = {
  wants: ['navigation_views'],
  fetch: ({ user }) => (user ? { navigation_views: (user.navigation_views ?? []).map((v) => ({ ...v })) } : {}),
};

export const sections = [savedSnippetsSection, navigationViewsSection];
