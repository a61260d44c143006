/**
 * The organization's STUN/TURN servers for Hearth's calls (`hearth_call_ice_servers`, administrators,
 * PATCH /realm): a JSON list of RTCIceServer dictionaries, `[]` (the default) for host candidates
 * only, which is all a call on one LAN needs.
 */
import { errors } from '../../errors.js';
import { decodeJson, type ParamType } from '../../params/params.js';
import type { RealmSetting } from '../realm/setting-definition.js';

export interface IceServer {
  urls: string | string[];
  username?: string;
  credential?: string;
}

const MAX_SERVERS = 10;
const MAX_URLS = 10;
const MAX_TEXT = 512;
const ICE_URL = /^(stuns?|turns?):[^\s]+$/;

const bad = (why: string) => errors.badRequest(`Invalid hearth_call_ice_servers: ${why}`);

/** Checks a list of ICE servers (stun:, stuns:, turn:, turns: URLs; a TURN server needs username and credential). */
export function checkIceServers(value: unknown): IceServer[] {
  if (!Array.isArray(value)) throw bad('not a list');
  if (value.length > MAX_SERVERS) throw bad(`at most ${MAX_SERVERS} servers`);
  return value.map((raw, i) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw bad(`server ${i} is not an object`);
    const s = raw as Record<string, unknown>;
    for (const k of Object.keys(s)) if (!['urls', 'username', 'credential'].includes(k)) throw bad(`server ${i} has an unknown key ${k}`);
    const urls = typeof s.urls === 'string' ? [s.urls] : s.urls;
    if (!Array.isArray(urls) || urls.length === 0 || urls.length > MAX_URLS) throw bad(`server ${i} needs urls`);
    for (const u of urls) {
      if (typeof u !== 'string' || u.length > MAX_TEXT || !ICE_URL.test(u)) throw bad(`server ${i} has a URL that is not stun:, stuns:, turn: or turns:`);
    }
    const out: IceServer = { urls: typeof s.urls === 'string' ? s.urls : [...(urls as string[])] };
    for (const k of ['username', 'credential'] as const) {
      if (s[k] === undefined) continue;
      if (typeof s[k] !== 'string' || (s[k] as string).length > MAX_TEXT) throw bad(`server ${i}'s ${k} is not a string`);
      out[k] = s[k] as string;
    }
    const turn = (urls as string[]).some((u) => u.startsWith('turn'));
    if (turn && (out.username === undefined || out.credential === undefined)) throw bad(`server ${i} is a TURN server without username and credential`);
    return out;
  });
}

const iceServersParam: ParamType<IceServer[]> = { read: (raw, name) => checkIceServers(decodeJson(raw, name)) };

/** The setting's entry in the organization settings table (server/lib/realm/settings.ts). */
export const CALL_SETTINGS: RealmSetting[] = [
  {
    name: 'hearth_call_ice_servers',
    type: iceServersParam,
    who: 'admin',
    stored: { in: 'settings', key: 'hearth_call_ice_servers' },
    fallback: [],
  } as RealmSetting,
];
