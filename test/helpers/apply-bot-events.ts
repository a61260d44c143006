/**
 * Client-side reducer for the bots, devices and video-call areas: `realm_bot`
 * (as the web app's bot_data.js), `device`, and the derived `jitsi_server_url`
 * that Zulip's apply_event recomputes when `realm_jitsi_server_url` changes.
 */
// biome-ignore lint/suspicious/noExplicitAny: register state as plain JSON, as a client keeps it (compared with a fresh register)
type State = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: events as the JSON a client receives
type Event = Record<string, any>;

/** Returns whether the event was one of these types. */
export function applyBotEvent(state: State, e: Event): boolean {
  if (e.type === 'realm_bot') {
    if (!state.realm_bots) return true;
    const bots: Event[] = state.realm_bots;
    switch (e.op) {
      case 'add':
        state.realm_bots = [...bots.filter((b) => b.user_id !== e.bot.user_id), e.bot].sort((a, b) => a.user_id - b.user_id);
        return true;
      case 'update': {
        const bot = bots.find((b) => b.user_id === e.bot.user_id);
        if (bot) Object.assign(bot, e.bot);
        return true;
      }
      case 'delete':
      case 'remove':
        state.realm_bots = bots.filter((b) => b.user_id !== e.bot.user_id);
        return true;
      default:
        throw new Error(`unknown realm_bot op ${e.op}`);
    }
  }
  if (e.type === 'device') {
    if (!state.devices) return true;
    const { type: _t, op, device_id: id, id: _id, ...fields } = e;
    if (op === 'add') state.devices[String(id)] = fields;
    else if (op === 'update') Object.assign(state.devices[String(id)] ?? {}, fields);
    else if (op === 'remove') delete state.devices[String(id)];
    else throw new Error(`unknown device op ${op}`);
    return true;
  }
  // Not consumed: the realm reducer still applies the event itself.
  if (e.type === 'realm' && e.op === 'update' && e.property === 'jitsi_server_url' && 'jitsi_server_url' in state) {
    state.jitsi_server_url = e.value || state.server_jitsi_server_url;
  }
  return false;
}
