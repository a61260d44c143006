/**
 * Video-call links (Zulip's zerver/views/video_calls.py). The organization picks a
 * provider (`video_chat_provider`); administrators configure it through `PATCH /realm`:
 * Jitsi Meet by base URL (`jitsi_server_url`), BigBlueButton by API URL and shared
 * secret (`bigbluebutton_url`, `bigbluebutton_secret`). A BigBlueButton link is
 * Zulip's: `/calls/bigbluebutton/join?bigbluebutton=<signed data>`, signed the way
 * Django's Signer signs objects, and the join answers with a redirect to the
 * BigBlueButton server's `api/join`, checksummed with the shared secret.
 */
import { createHash, createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { errors } from '../../errors.js';
import type { RealmSettings, UserRecord } from '../../store/records.js';

/** Zulip's video_chat_provider ids that Hearth serves, and Hearth's own calls on the LAN (100, server/lib/calls/). */
export const PROVIDER = { NONE: 0, JITSI_MEET: 1, BIG_BLUE_BUTTON: 4, HEARTH: 100 } as const;

/** A Hearth call room's link: the chat page at `/calls/hearth/<room id>` on the address the request used. */
export const hearthCallUrl = (origin: string, roomId: string): string => `${origin}/calls/hearth/${roomId}`;

/** Zulip's default JITSI_SERVER_URL (`server_jitsi_server_url`); a link only, Hearth never contacts it. */
export const SERVER_JITSI_SERVER_URL = 'https://meet.jit.si';

/** How long the server waits for the BigBlueButton server (Zulip's VideoCallSession timeout). */
export const BBB_TIMEOUT_MS = 5000;

export const jitsiServerUrl = (s: RealmSettings): string => s.jitsi_server_url || SERVER_JITSI_SERVER_URL;

export interface BbbConfig {
  /** The API base, ending in `/` (e.g. `https://bbb.example.com/bigbluebutton/`). */
  url: string;
  secret: string;
}

export function bbbConfig(s: RealmSettings): BbbConfig | null {
  if (!s.bigbluebutton_url || !s.bigbluebutton_secret) return null;
  return { url: s.bigbluebutton_url.endsWith('/') ? s.bigbluebutton_url : `${s.bigbluebutton_url}/`, secret: s.bigbluebutton_secret };
}

export const bbbNotConfigured = () =>
  errors.badRequest(
    'BigBlueButton is not configured. An administrator must set bigbluebutton_url and bigbluebutton_secret (PATCH /realm).',
  );

// --- Settings (validators used by the realm settings table) ---

const isHttpUrl = (raw: string): boolean => {
  try {
    const u = new URL(raw);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
};

/** Zulip's check_jitsi_url: a URL, or `"default"` for the server's (stored as null). */
export function checkJitsiUrl(value: string | null): string | null {
  if (value === null || value === 'default') return null;
  if (!isHttpUrl(value)) throw errors.badRequest('jitsi_server_url is not an allowed_type');
  return value.replace(/\/+$/, '');
}

/** The BigBlueButton API URL: an http(s) URL, or `""` / `"default"` / null to unset it. */
export function checkBbbUrl(value: string | null): string | null {
  if (value === null || value === '' || value === 'default') return null;
  if (!isHttpUrl(value)) throw errors.badRequest('bigbluebutton_url is not a URL');
  return value;
}

/** The BigBlueButton shared secret: printable, at most 1000 characters; `""` or null unsets it. */
export function checkBbbSecret(value: string | null): string | null {
  if (value === null || value === '') return null;
  if (value.length > 1000 || /[\u0000-\u001f\u007f]/.test(value)) throw errors.badRequest('Invalid bigbluebutton_secret');
  return value;
}

// --- Django's Signer (sign_object / unsign_object), keyed per BigBlueButton secret ---

const b64url = (b: Buffer) => b.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

function signature(value: string, secret: string): string {
  // Django's base64_hmac(salt + "signer", value, key): HMAC-SHA256 keyed by sha256(key_salt + secret).
  const key = createHash('sha256').update(`django.core.signingsigner${secret}`).digest();
  return b64url(createHmac('sha256', key).update(value).digest());
}

/** The join links' signing key: derived from the shared secret, so a new secret voids old links. */
const signingSecret = (config: BbbConfig) => `hearth-bigbluebutton-join:${config.secret}`;

export function signObject(obj: unknown, secret: string): string {
  const value = b64url(Buffer.from(JSON.stringify(obj)));
  return `${value}:${signature(value, secret)}`;
}

export function unsignObject(signed: string, secret: string): unknown {
  const colon = signed.lastIndexOf(':');
  if (colon < 0) return null;
  const value = signed.slice(0, colon);
  const given = Buffer.from(signed.slice(colon + 1));
  const expected = Buffer.from(signature(value, secret));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    return JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
}

export interface BbbMeeting {
  meeting_id: string;
  name: string;
  lock_settings_disable_cam: boolean;
  /** The user who created the call: the only moderator. */
  moderator: number;
}

/** Zulip's get_bigbluebutton_url: a random meeting ID and the signed join link. */
export function bbbJoinLink(config: BbbConfig, user: UserRecord, meetingName: string, voiceOnly: boolean): string {
  const meeting: BbbMeeting = {
    meeting_id: `zulip-${randomInt(100000000000, 999999999999)}`,
    name: meetingName,
    lock_settings_disable_cam: voiceOnly,
    moderator: user.id,
  };
  return `/calls/bigbluebutton/join?bigbluebutton=${encodeURIComponent(signObject(meeting, signingSecret(config)))}`;
}

export function readJoinLink(config: BbbConfig, signed: string): BbbMeeting | null {
  const data = unsignObject(signed, signingSecret(config)) as Partial<BbbMeeting> | null;
  if (!data || typeof data.meeting_id !== 'string' || typeof data.name !== 'string') return null;
  if (typeof data.moderator !== 'number' || typeof data.lock_settings_disable_cam !== 'boolean') return null;
  return data as BbbMeeting;
}

// --- BigBlueButton API calls (checksum: sha256 of call name + query + shared secret) ---

/** Python's urlencode(..., quote_via=quote): only `A-Za-z0-9_.-~` stay literal. */
const quote = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const query = (params: [string, string][]) => params.map(([k, val]) => `${quote(k)}=${quote(val)}`).join('&');

export function bbbApiUrl(config: BbbConfig, call: 'create' | 'join', params: [string, string][]): string {
  const q = query(params);
  const checksum = createHash('sha256').update(`${call}${q}${config.secret}`).digest('hex');
  return `${config.url}api/${call}?${q}&checksum=${checksum}`;
}

export const bbbCreateUrl = (config: BbbConfig, m: BbbMeeting) =>
  bbbApiUrl(config, 'create', [
    ['meetingID', m.meeting_id],
    ['name', m.name],
    ['lockSettingsDisableCam', m.lock_settings_disable_cam ? 'true' : 'false'],
  ]);

export const bbbJoinUrl = (config: BbbConfig, m: BbbMeeting, user: UserRecord, createTime: string) =>
  bbbApiUrl(config, 'join', [
    ['meetingID', m.meeting_id],
    ['role', m.moderator === user.id ? 'MODERATOR' : 'VIEWER'],
    ['fullName', user.full_name],
    ['createTime', createTime],
  ]);

const tag = (xml: string, name: string): string | null => {
  const m = new RegExp(`<${name}>\\s*([^<]*?)\\s*</${name}>`).exec(xml);
  return m ? m[1]! : null;
};

/**
 * Creates (or re-creates) the meeting on the BigBlueButton server and answers the join
 * URL to redirect to, with Zulip's errors for an unreachable or refusing server.
 */
export async function bbbJoin(config: BbbConfig, m: BbbMeeting, user: UserRecord): Promise<string> {
  let xml: string;
  try {
    const res = await fetch(bbbCreateUrl(config, m), { signal: AbortSignal.timeout(BBB_TIMEOUT_MS), redirect: 'error' });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    xml = await res.text();
  } catch {
    throw errors.badRequest('Error connecting to the BigBlueButton server.');
  }
  if (tag(xml, 'messageKey') === 'checksumError') throw errors.badRequest('Error authenticating to the BigBlueButton server.');
  const createTime = tag(xml, 'createTime');
  if (tag(xml, 'returncode') !== 'SUCCESS' || createTime === null) {
    throw errors.badRequest('BigBlueButton server returned an unexpected error.');
  }
  return bbbJoinUrl(config, m, user, createTime);
}

// --- Jitsi Meet ---

/** A Jitsi room named after the conversation, with a random suffix so links are not guessable. */
export function jitsiLink(s: RealmSettings, roomName: string): string {
  const slug = roomName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\w-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  const id = String(randomInt(100000000000, 999999999999));
  return `${jitsiServerUrl(s)}/${slug ? `${slug}-${id}` : id}`;
}
