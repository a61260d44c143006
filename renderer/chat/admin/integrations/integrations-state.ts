/**
 * What the Integrations section reads (one register call: the integrations, the bots this
 * administrator manages, the loopback setting; its queue is deleted straight away), where tools
 * reach the server, and finding or making the incoming-webhook bot for a tool.
 */
import type { Channel } from '../../../../server/protocol/channel.js';
import type { RegisterState } from '../../../../server/protocol/register.js';
import { zuliprcSite } from '../../settings/zuliprc.js';
import { del, get, post } from '../api.js';
import { botFullName, botShortName, type Tool } from './tools.js';

/** An integration as `realm_incoming_webhook_bots` lists it. */
export interface IncomingIntegration {
  name: string;
  display_name: string;
}

/** A bot of `realm_bots` (every bot, for administrators), as far as this section reads it. */
export interface RealmBot {
  user_id: number;
  email: string;
  full_name: string;
  bot_type: number;
  is_active: boolean;
  api_key: string;
  owner_id: number | null;
  services?: { base_url?: string; interface?: number }[];
  hearth_last_call?: { timestamp: number; ok: boolean; text: string } | null;
}

export interface IntegrationsState extends RegisterState {
  realm_incoming_webhook_bots?: IncomingIntegration[];
  realm_bots?: RealmBot[];
  realm_hearth_allow_loopback_webhooks?: boolean;
}

export async function fetchIntegrations(): Promise<IntegrationsState> {
  const state = await post<IntegrationsState>('/register', {
    fetch_event_types: ['realm', 'realm_incoming_webhook_bots', 'realm_bot'],
    event_types: ['heartbeat'],
  });
  if (state.queue_id) void del('/events', { queue_id: state.queue_id }).catch(() => undefined);
  return state;
}

/** The channels a bot can be pointed at, by name. */
export async function fetchChannels(): Promise<Channel[]> {
  const res = await get<{ streams?: Channel[] }>('/streams');
  return (res.streams ?? []).filter((c) => !c.is_archived).sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Where the tools send: this page's origin, except when that is the server computer's loopback
 * (the desktop window): then the server's first LAN URL, as a zuliprc's site is chosen.
 */
export const fetchOrigin = (): Promise<string> =>
  get<{ lan_urls?: string[] }>('/hearth/status').then(
    (s) => zuliprcSite(location.origin, Array.isArray(s.lan_urls) ? s.lan_urls : []),
    () => location.origin,
  );

const INCOMING_WEBHOOK = 2;

/** The tool's bot among `bots`: an active incoming-webhook bot named by the section's convention (`gitea-bot@…`, `gitea-2-bot@…`). */
export function existingBot(tool: Tool, bots: readonly RealmBot[]): RealmBot | undefined {
  const short = botShortName(tool);
  const mine = new RegExp(`^${short.replace(/[.-]/g, '\\$&')}(?:-\\d+)?-bot@`);
  return bots.filter((b) => b.bot_type === INCOMING_WEBHOOK && b.is_active && mine.test(b.email)).sort((a, b) => a.user_id - b.user_id)[0];
}

/** Makes the tool's bot (`POST /bots`, type 2), with the next free username and name when a deactivated one holds them. */
export async function makeBot(tool: Tool, bots: readonly RealmBot[]): Promise<RealmBot> {
  const taken = (n: number) => bots.some((b) => b.email.startsWith(`${botShortName(tool, n)}-bot@`) || (b.is_active && b.full_name === botFullName(tool, n)));
  let n = 1;
  while (taken(n)) n++;
  const full_name = botFullName(tool, n);
  const short_name = botShortName(tool, n);
  const res = await post<{ user_id: number; api_key: string }>('/bots', { full_name, short_name, bot_type: INCOMING_WEBHOOK, service_name: tool.integration });
  return { user_id: res.user_id, email: `${short_name}-bot@`, full_name, bot_type: INCOMING_WEBHOOK, is_active: true, api_key: res.api_key, owner_id: null };
}
