/**
 * A client-side reducer: applies events to a register snapshot the way a
 * Zulip client would. verifyAction compares its result with a fresh
 * register, so every event type an action emits needs a case here; an
 * unknown type throws, so a new event cannot go untested.
 */
import { applyRealmEvent } from './apply-realm-events.js';
import { applyBotEvent } from './apply-bot-events.js';
import { applyChannelEvent, type ChannelReducerOptions } from './apply-channel-events.js';
import { applySettingsEvent } from './apply-settings-events.js';
import {
  applyDeleteEvent,
  applyFlagsEvent,
  applyMessageEvent,
  applyUpdateMessageEvent,
  recountUnread,
} from './apply-message-events.js';
import { applyCustomProfileFields, applyRealmUserEvent } from './apply-people-events.js';

// biome-ignore lint/suspicious/noExplicitAny: register state as plain JSON, as a client keeps it (compared with a fresh register)
type State = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: events as the JSON a client receives
type Event = Record<string, any>;

const byTimestampDesc = (a: Event, b: Event) => b.timestamp - a.timestamp || b.id - a.id;

function applyDrafts(state: State, e: Event): void {
  if (!state.drafts) return;
  if (e.op === 'add') state.drafts.push(...e.drafts);
  else if (e.op === 'update') {
    const i = state.drafts.findIndex((d: Event) => d.id === e.draft.id);
    if (i < 0) throw new Error(`drafts update for unknown draft ${e.draft.id}`);
    state.drafts[i] = e.draft;
  } else if (e.op === 'remove') state.drafts = state.drafts.filter((d: Event) => d.id !== e.draft_id);
  else throw new Error(`unknown drafts op ${e.op}`);
  state.drafts.sort(byTimestampDesc);
}

const byId = (a: number, b: number) => a - b;

/** As the web app keeps them: soonest first. */
function applyScheduledMessages(state: State, e: Event): void {
  if (!state.scheduled_messages) return;
  const key = 'scheduled_message_id';
  if (e.op === 'add') state.scheduled_messages.push(...e.scheduled_messages);
  else if (e.op === 'update') {
    const i = state.scheduled_messages.findIndex((m: Event) => m[key] === e.scheduled_message[key]);
    if (i < 0) throw new Error(`scheduled_messages update for unknown ${e.scheduled_message[key]}`);
    state.scheduled_messages[i] = e.scheduled_message;
  } else if (e.op === 'remove') state.scheduled_messages = state.scheduled_messages.filter((m: Event) => m[key] !== e[key]);
  else throw new Error(`unknown scheduled_messages op ${e.op}`);
  state.scheduled_messages.sort((a: Event, b: Event) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp || a[key] - b[key]);
}

/** `user_group` events on `realm_user_groups`, kept sorted by ID like the register section. */
function applyUserGroup(state: State, e: Event): void {
  if (!state.realm_user_groups) return;
  const groups: Event[] = state.realm_user_groups;
  const g = groups.find((x) => x.id === (e.group_id ?? e.group?.id));
  switch (e.op) {
    case 'add':
      state.realm_user_groups = [...groups.filter((x) => x.id !== e.group.id), e.group].sort((a, b) => a.id - b.id);
      return;
    case 'remove':
      state.realm_user_groups = groups.filter((x) => x.id !== e.group_id);
      return;
    case 'update':
      if (g) Object.assign(g, e.data);
      return;
    case 'add_members':
      if (g) g.members = [...new Set([...g.members, ...e.user_ids])].sort(byId);
      return;
    case 'remove_members':
      if (g) g.members = g.members.filter((id: number) => !e.user_ids.includes(id));
      return;
    case 'add_subgroups':
      if (g) g.direct_subgroup_ids = [...new Set([...g.direct_subgroup_ids, ...e.direct_subgroup_ids])].sort(byId);
      return;
    case 'remove_subgroups':
      if (g) g.direct_subgroup_ids = g.direct_subgroup_ids.filter((id: number) => !e.direct_subgroup_ids.includes(id));
      return;
    default:
      throw new Error(`unknown user_group op ${e.op}`);
  }
}

export function applyEvents(state: State, events: Event[], opts: ChannelReducerOptions = {}): State {
  const out = structuredClone(state);
  for (const e of events) {
    if (applyChannelEvent(out, e, opts)) {
      if (e.type === 'subscription' && e.op === 'update' && ['is_muted', 'in_home_view'].includes(e.property)) recountUnread(out);
      continue;
    }
    if (applyBotEvent(out, e)) continue;
    if (applyRealmEvent(out, e)) continue;
    if (applySettingsEvent(out, e)) {
      if (e.type === 'user_topic') recountUnread(out);
      continue;
    }
    switch (e.type) {
      case 'heartbeat':
      case 'typing':
      case 'typing_edit_message':
      case 'reaction':
      case 'submessage':
        // Not part of the register state (Zulip's apply_event ignores them; they live on messages).
        break;
      case 'attachment':
        // Zulip's apply_event ignores it: attachments are not part of the register state.
        break;
      case 'message':
        applyMessageEvent(out, e, opts.userId);
        break;
      case 'update_message_flags':
        applyFlagsEvent(out, e, opts.userId);
        break;
      case 'delete_message':
        applyDeleteEvent(out, e);
        break;
      case 'update_message':
        applyUpdateMessageEvent(out, e);
        break;
      case 'drafts':
        applyDrafts(out, e);
        break;
      case 'scheduled_messages':
        applyScheduledMessages(out, e);
        break;
      case 'reminders':
        if (!out.reminders) break;
        if (e.op === 'add') out.reminders.push(...e.reminders);
        else if (e.op === 'remove') out.reminders = out.reminders.filter((r: Event) => r.reminder_id !== e.reminder_id);
        else throw new Error(`unknown reminders op ${e.op}`);
        out.reminders.sort((a: Event, b: Event) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp || a.reminder_id - b.reminder_id);
        break;
      case 'realm_user':
        applyRealmUserEvent(out, e);
        break;
      case 'custom_profile_fields':
        applyCustomProfileFields(out, e);
        break;
      case 'user_group':
        applyUserGroup(out, e);
        break;
      case 'invites_changed':
        // No state: clients refetch GET /invites.
        break;
      default:
        throw new Error(`applyEvents: no reducer for event type ${e.type}`);
    }
  }
  return out;
}
