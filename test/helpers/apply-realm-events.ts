/**
 * Client-side reducer for organization-settings events (`realm` update / update_dict and
 * `realm_user_settings_defaults` update, `realm_emoji` in both forms, `realm_linkifiers`), as Zulip clients apply them to register state.
 */
// biome-ignore lint/suspicious/noExplicitAny: register state as plain JSON, as a client keeps it (compared with a fresh register)
type State = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: events as the JSON a client receives
type Event = Record<string, any>;

const setIfPresent = (state: State, key: string, value: unknown) => {
  if (key in state) state[key] = value;
};

/** Returns whether the event was one of these types. */
export function applyRealmEvent(state: State, e: Event): boolean {
  if (e.type === 'realm_playgrounds') {
    setIfPresent(state, 'realm_playgrounds', e.realm_playgrounds);
    return true;
  }
  if (e.type === 'realm_linkifiers') {
    setIfPresent(state, 'realm_linkifiers', e.linkifiers);
    return true;
  }
  if (e.type === 'realm_user_settings_defaults') {
    if (e.op !== 'update') throw new Error(`unknown realm_user_settings_defaults op ${e.op}`);
    if (state.realm_user_settings_defaults) state.realm_user_settings_defaults[e.property] = e.value;
    return true;
  }
  if (e.type === 'realm_emoji') {
    if (!state.realm_emoji) return true;
    // Legacy: the whole map; individual_emoji_changes: one emoji added, or some of its fields changed.
    if (e.op === 'update') state.realm_emoji = e.realm_emoji;
    else if (e.op === 'add') state.realm_emoji[e.emoji.id] = e.emoji;
    else if (e.op === 'update_one' || e.op === 'edit') Object.assign(state.realm_emoji[e.emoji_id], e.data);
    else throw new Error(`unknown realm_emoji op ${e.op}`);
    return true;
  }
  if (e.type !== 'realm') return false;
  // Hearth's max_file_upload_size_mib setting lives under its Zulip register key.
  // As Zulip's apply_event: keys derived from a setting follow it.
  const derived = (k: string, v: unknown) => {
    if (k === 'max_file_upload_size_mib') setIfPresent(state, k, v);
    if (k === 'topics_policy') setIfPresent(state, 'realm_mandatory_topics', v === 'disable_empty_topic');
    if (k === 'allow_edit_history') setIfPresent(state, 'realm_message_edit_history_visibility_policy', v ? 'all' : 'none');
  };
  if (e.op === 'update') {
    setIfPresent(state, `realm_${e.property}`, e.value);
    derived(e.property, e.value);
  } else if (e.op === 'update_dict') {
    if (e.property === 'icon') {
      setIfPresent(state, 'realm_icon_url', e.data.icon_url);
      setIfPresent(state, 'realm_icon_source', e.data.icon_source);
    } else {
      for (const [k, v] of Object.entries(e.data as Record<string, unknown>)) {
        setIfPresent(state, `realm_${k}`, v);
        derived(k, v);
      }
    }
  } else throw new Error(`unknown realm op ${e.op}`);
  return true;
}
