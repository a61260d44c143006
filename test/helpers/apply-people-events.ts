/**
 * Client-side reducer for `realm_user` and `custom_profile_fields` events, as
 * the Zulip web client applies them (people.js, user_events.js).
 */
// biome-ignore lint/suspicious/noExplicitAny: register state as plain JSON, as a client keeps it (compared with a fresh register)
type State = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: events as the JSON a client receives
type Event = Record<string, any>;

const byUserId = (a: Event, b: Event) => a.user_id - b.user_id;

/** Role flags of a member object. */
function roleFlags(role: number) {
  return { is_owner: role === 100, is_admin: role === 100 || role === 200, is_guest: role === 600 };
}

/** The register's fields about the current user follow their own updates. */
function applySelf(state: State, p: Event): void {
  if (state.user_id !== p.user_id) return;
  if (p.full_name !== undefined) state.full_name = p.full_name;
  if (p.new_email !== undefined) state.email = p.new_email;
  if (p.delivery_email !== undefined && p.delivery_email !== null) state.delivery_email = p.delivery_email;
  if (p.role !== undefined) {
    Object.assign(state, roleFlags(p.role));
    state.is_moderator = p.role === 300;
  }
  for (const k of ['avatar_source', 'avatar_url', 'avatar_url_medium']) if (p[k] !== undefined) state[k] = p[k];
}

function applyUpdate(state: State, p: Event): void {
  const lists = [state.realm_users, state.realm_non_active_users].filter(Boolean) as Event[][];
  const u = lists.flat().find((x) => x.user_id === p.user_id);
  if (!u) return;
  const { new_email: newEmail, custom_profile_field: field, avatar_source: _s, avatar_url_medium: _m, ...rest } = p;
  Object.assign(u, rest);
  if (newEmail !== undefined) u.email = newEmail;
  if (p.role !== undefined) Object.assign(u, roleFlags(p.role));
  if (field) {
    u.profile_data ??= {};
    if (field.value === null) delete u.profile_data[String(field.id)];
    else {
      const { id, ...value } = field;
      u.profile_data[String(id)] = value;
    }
  }
  if (p.is_active !== undefined && state.realm_non_active_users) {
    const from = p.is_active ? 'realm_non_active_users' : 'realm_users';
    const to = p.is_active ? 'realm_users' : 'realm_non_active_users';
    if (state[from].includes(u)) {
      state[from] = state[from].filter((x: Event) => x !== u);
      state[to] = [...state[to], u].sort(byUserId);
    }
    // Deactivated users are in no group; clients drop them themselves (feature level 303).
    if (!p.is_active && state.realm_user_groups) {
      for (const g of state.realm_user_groups) g.members = g.members.filter((id: number) => id !== p.user_id);
    }
  }
}

export function applyRealmUserEvent(state: State, e: Event): void {
  if (e.op === 'update') applySelf(state, e.person);
  if (!state.realm_users) return;
  const without = (key: string) => {
    if (state[key]) state[key] = state[key].filter((x: Event) => x.user_id !== e.person.user_id);
  };
  if (e.op === 'add') {
    // The real object replaces an "Unknown user" placeholder; a deactivated user joins the inactive list.
    without('realm_users');
    without('realm_non_active_users');
    const key = e.person.is_active === false && state.realm_non_active_users ? 'realm_non_active_users' : 'realm_users';
    state[key] = [...state[key], e.person].sort(byUserId);
  } else if (e.op === 'update') {
    applyUpdate(state, e.person);
  } else if (e.op === 'remove') {
    without('realm_users');
    without('realm_non_active_users');
  } else throw new Error(`unknown realm_user op ${e.op}`);
}

/** The whole list is resent; values of a deleted field go with it. */
export function applyCustomProfileFields(state: State, e: Event): void {
  if (state.custom_profile_fields) state.custom_profile_fields = e.fields;
  const ids = new Set((e.fields as Event[]).map((f) => String(f.id)));
  for (const list of [state.realm_users, state.realm_non_active_users]) {
    for (const u of (list ?? []) as Event[]) {
      for (const k of Object.keys(u.profile_data ?? {})) if (!ids.has(k)) delete u.profile_data[k];
    }
  }
}
