/**
 * Client-side reducer for personal-settings and per-user events: `user_settings`
 * `alert_words`, `muted_users`, `user_topic`,
 * `muted_topics`, `user_status`, `presence`.
 */
// biome-ignore lint/suspicious/noExplicitAny: register state as plain JSON, as a client keeps it (compared with a fresh register)
type State = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: events as the JSON a client receives
type Event = Record<string, any>;

/** Returns whether the event was one of these types. */
export function applySettingsEvent(state: State, e: Event): boolean {
  switch (e.type) {
    case 'user_settings':
      if (state.user_settings) state.user_settings[e.property] = e.value;
      return true;
    case 'alert_words':
      if (state.alert_words) state.alert_words = e.alert_words;
      return true;
    case 'muted_users':
      if (state.muted_users) state.muted_users = e.muted_users;
      return true;
    case 'user_topic': {
      if (!state.user_topics) return true;
      const list: Event[] = state.user_topics.filter(
        (t: Event) => !(t.stream_id === e.stream_id && t.topic_name.toLowerCase() === e.topic_name.toLowerCase()),
      );
      if (e.visibility_policy !== 0) {
        list.push({ stream_id: e.stream_id, topic_name: e.topic_name, visibility_policy: e.visibility_policy, last_updated: e.last_updated });
      }
      state.user_topics = list;
      return true;
    }
    case 'muted_topics':
      if (state.muted_topics) state.muted_topics = e.muted_topics;
      return true;
    case 'user_status': {
      if (!state.user_status) return true;
      const key = String(e.user_id);
      const current: Event = { ...(state.user_status[key] ?? {}) };
      for (const k of ['status_text', 'emoji_name', 'emoji_code', 'reaction_type']) {
        if (k in e) {
          if (e[k] === '') delete current[k];
          else current[k] = e[k];
        }
      }
      if (Object.keys(current).length) state.user_status[key] = current;
      else delete state.user_status[key];
      return true;
    }
    case 'saved_snippets': {
      if (!state.saved_snippets) return true;
      const list: Event[] = state.saved_snippets;
      if (e.op === 'add') list.push(e.saved_snippet);
      else if (e.op === 'update') list.splice(list.findIndex((s) => s.id === e.saved_snippet.id), 1, e.saved_snippet);
      else state.saved_snippets = list.filter((s) => s.id !== e.saved_snippet_id);
      return true;
    }
    case 'navigation_view': {
      if (!state.navigation_views) return true;
      const list: Event[] = state.navigation_views;
      if (e.op === 'add') list.push(e.navigation_view);
      else if (e.op === 'update') Object.assign(list.find((v) => v.fragment === e.fragment) ?? {}, e.data);
      else state.navigation_views = list.filter((v) => v.fragment !== e.fragment);
      return true;
    }
    case 'presence':
      if (!state.presences) return true;
      if (e.presences) Object.assign(state.presences, e.presences);
      return true;
    default:
      return false;
  }
}
