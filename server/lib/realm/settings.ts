/**
 * The organization settings an administrator changes through `PATCH /realm` (and
 * `PATCH /realm/user_settings_defaults`), one entry per setting: its parameter and how it
 * is read and validated, who may change it, where it is stored, how the change is
 * announced and what register shows. Other areas add their settings here (one entry each).
 */
import type { App } from '../../context.js';
import { errors } from '../../errors.js';
import { decodeJson, t, type ParamType } from '../../params/params.js';
import type { ChannelRecord } from '../../store/channel-records.js';
import type { RealmRecord, RealmSettings } from '../../store/records.js';
import { EMAIL_VISIBILITY } from '../people/people.js';
import { LANGUAGE_CODE } from '../people/settings.js';
import { REALM_GROUP_SETTINGS } from './group-settings.js';
import { checkBbbSecret, checkBbbUrl, checkJitsiUrl } from './video-calls.js';
import { SERVER_SETTINGS } from './server-settings.js';
import { UPLOAD_SETTINGS } from '../uploads/settings.js';
import { CALL_SETTINGS } from '../calls/ice-servers.js';
import { define, type RealmSetting } from './setting-definition.js';

export type { RealmSetting } from './setting-definition.js';

/** Zulip's Realm.MAX_REALM_NAME_LENGTH and MAX_REALM_DESCRIPTION_LENGTH. */
export const MAX_REALM_NAME_LENGTH = 40;
export const MAX_REALM_DESCRIPTION_LENGTH = 1000;
/** Zulip's MAX_REALM_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH. */
export const MAX_WELCOME_TEXT_LENGTH = 8000;

/** Video-call providers this server offers (Zulip's ids; 0 none, 1 Jitsi Meet, 4 BigBlueButton). */
export const VIDEO_CHAT_PROVIDERS = {
  disabled: { name: 'None', id: 0 },
  jitsi_meet: { name: 'Jitsi Meet', id: 1 },
  big_blue_button: { name: 'BigBlueButton', id: 4 },
  // Hearth's own calls on the LAN (server/lib/calls/): the default for new organizations.
  hearth: { name: 'Hearth (on this network)', id: 100 },
} as const;

/** A string setting sent JSON-encoded as Zulip's Json[str] (or, leniently, bare); JSON null allowed. */
const jsonStringOrNull: ParamType<string | null> = {
  read: (raw, name) => {
    if (!raw.startsWith('"') && raw !== 'null') return raw;
    const value: unknown = decodeJson(raw, name);
    if (value !== null && typeof value !== 'string') throw errors.badRequest(`${name} is not a string`);
    return value as string | null;
  },
};

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/** Zulip's Realm.ORG_TYPES ids (0 unspecified, 10 business, 20 open source, 30 education, ...). */
const ORG_TYPES = [0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100];

/** A language code as Zulip's default_language: letters, digits, '-' and '_'. */
function checkLanguage(value: string): string {
  if (!LANGUAGE_CODE.test(value)) throw errors.badRequest('Invalid language');
  return value;
}


/**
 * A time limit in seconds (Zulip's message edit / delete / move limits): a positive integer,
 * or null (JSON null or "unlimited") for no limit.
 */
function secondsLimit(name: string, fallback: number): RealmSetting {
  return define<number | null>({
    name,
    type: {
      read: (raw, param) => {
        if (raw === 'unlimited' || raw === '"unlimited"' || raw === 'null') return null;
        return t.int.read(raw, param);
      },
    },
    who: 'admin',
    stored: { in: 'settings', key: name as keyof RealmSettings & string },
    fallback,
    validate: (value) => {
      if (value !== null && value < 1) throw errors.badRequest(`Bad value for '${name}': ${value}`);
      return value;
    },
  });
}

type ChannelSettingName = 'new_stream_announcements_stream_id' | 'moderation_request_channel_id';

const activeChannel = (app: App, id: number): ChannelRecord | undefined =>
  app.store.channels.data.channels.find((c) => c.id === id && !c.is_archived);

/** A channel chosen by ID (-1: none): an existing, unarchived channel that passes `check`. */
function channelSetting(name: ChannelSettingName, check?: (c: ChannelRecord) => void): RealmSetting {
  return define<number>({
    name,
    type: t.int,
    who: 'admin',
    stored: { in: 'settings', key: name },
    fallback: -1,
    validate: (value, app) => {
      if (value === -1) return value;
      const channel = activeChannel(app, value);
      if (!channel) throw errors.badRequest('Invalid channel ID');
      check?.(channel);
      return value;
    },
  });
}

/** The channel a channel setting names, while it exists and is not archived. */
export function settingChannel(app: App, name: ChannelSettingName): ChannelRecord | undefined {
  const id = app.store.realm.data.realm?.settings[name] ?? -1;
  return id === -1 ? undefined : activeChannel(app, id);
}

export const REALM_SETTINGS: RealmSetting[] = [
  define({
    name: 'name',
    type: t.string,
    who: 'admin',
    stored: { in: 'record', key: 'name' },
    fallback: '',
    validate: (raw) => {
      const value = raw.trim();
      if (!value) throw errors.invalidVar('name', 'Organization name must not be empty');
      if (value.length > MAX_REALM_NAME_LENGTH) throw errors.badRequest('Organization name is too long.');
      if (CONTROL.test(value) || value.includes('\n')) throw errors.badRequest('Invalid characters in name!');
      return value;
    },
  }),
  define({
    name: 'description',
    type: t.string,
    who: 'admin',
    stored: { in: 'record', key: 'description' },
    fallback: '',
    validate: (value) => {
      if (value.length > MAX_REALM_DESCRIPTION_LENGTH) {
        throw errors.badRequest('Organization description is too long.');
      }
      if (CONTROL.test(value)) throw errors.badRequest('Invalid characters in description');
      return value;
    },
  }),
  define({
    // Hearth's own: Zulip sets this per server (MAX_FILE_UPLOAD_SIZE); here the administrator
    // does, up to the server's file ceiling. Announced as a realm update (clients that do not
    // know the property ignore it); register shows it under Zulip's key.
    name: 'max_file_upload_size_mib',
    type: t.int,
    who: 'admin',
    stored: { in: 'settings', key: 'max_file_upload_size_mib' },
    fallback: 25,
    registerKey: null,
    // As Zulip announces a change of this limit (feature level 306).
    event: 'update_dict',
    validate: (value, app) => {
      const ceiling = Math.floor(app.config.fileLimitBytes / (1024 * 1024));
      if (!Number.isInteger(value) || value < 1 || value > ceiling) {
        throw errors.badRequest(`max_file_upload_size_mib must be between 1 and ${ceiling}`);
      }
      return value;
    },
  }),
  // The organization's upload quota and guests' daily allowance (owners): server/lib/uploads/settings.ts.
  ...UPLOAD_SETTINGS,
  define({
    name: 'enable_spectator_access',
    type: t.bool,
    who: 'admin',
    stored: { in: 'settings', key: 'enable_spectator_access' },
    fallback: false,
    validate: (value, app) => {
      if (value && !app.config.webPublicStreamsEnabled) {
        throw errors.badRequest('Web-public channels are not enabled on this server.');
      }
      return value;
    },
  }),
  define({
    name: 'video_chat_provider',
    type: t.int,
    who: 'admin',
    stored: { in: 'settings', key: 'video_chat_provider' },
    fallback: VIDEO_CHAT_PROVIDERS.jitsi_meet.id,
    validate: (value) => {
      if (!Object.values(VIDEO_CHAT_PROVIDERS).some((p) => p.id === value)) {
        throw errors.badRequest(`Invalid video_chat_provider ${value}`);
      }
      return value;
    },
  }),
  // STUN/TURN servers for Hearth's own calls.
  ...CALL_SETTINGS,
  define({
    // Zulip's custom Jitsi Meet server (feature level 212): a URL, or "default" for the server's.
    name: 'jitsi_server_url',
    type: jsonStringOrNull,
    who: 'admin',
    stored: { in: 'settings', key: 'jitsi_server_url' },
    fallback: null,
    validate: (value) => checkJitsiUrl(value),
  }),
  define({
    // Hearth: the BigBlueButton API URL (Zulip's server setting BIG_BLUE_BUTTON_URL); not announced.
    name: 'bigbluebutton_url',
    type: jsonStringOrNull,
    who: 'admin',
    stored: { in: 'settings', key: 'bigbluebutton_url' },
    fallback: null,
    secret: true,
    validate: (value) => checkBbbUrl(value),
  }),
  define({
    // Hearth: the BigBlueButton shared secret (Zulip's BIG_BLUE_BUTTON_SECRET); never sent to clients.
    name: 'bigbluebutton_secret',
    type: jsonStringOrNull,
    who: 'admin',
    stored: { in: 'settings', key: 'bigbluebutton_secret' },
    fallback: null,
    secret: true,
    validate: (value) => checkBbbSecret(value),
  }),
  define({
    name: 'message_retention_days',
    type: { read: (raw, name) => (raw === 'unlimited' || raw === '"unlimited"' ? -1 : t.int.read(raw, name)) },
    who: 'owner',
    stored: { in: 'settings', key: 'message_retention_days' },
    registerKey: null, // the channels area's register section shows realm_message_retention_days
    fallback: -1,
    validate: (value) => {
      if (value !== -1 && value < 1) throw errors.badRequest('Bad value for \'message_retention_days\': ' + value);
      return value;
    },
  }),
  // Zulip's new-channel announcements channel (POST /users/me/subscriptions with announce=true).
  channelSetting('new_stream_announcements_stream_id'),
  // Zulip 10 (feature level 331): the private channel message reports go to.
  channelSetting('moderation_request_channel_id', (c) => {
    if (!c.invite_only) throw errors.badRequest('Moderation request channel must be private.');
  }),
  define({ name: 'enable_read_receipts', type: t.bool, who: 'admin', stored: { in: 'settings', key: 'enable_read_receipts' }, fallback: true }),
  // Zulip announces the message-editing settings as update_dict "for historical reasons" (feature level 150).
  define({ name: 'allow_message_editing', type: t.bool, who: 'admin', stored: { in: 'settings', key: 'allow_message_editing' }, fallback: true, event: 'update_dict' }),
  define({ name: 'allow_edit_history', type: t.bool, who: 'admin', stored: { in: 'settings', key: 'allow_edit_history' }, fallback: true }),
  { ...secondsLimit('message_content_edit_limit_seconds', 600), event: 'update_dict' },
  secondsLimit('message_content_delete_limit_seconds', 600),
  secondsLimit('move_messages_within_stream_limit_seconds', 604_800),
  secondsLimit('move_messages_between_streams_limit_seconds', 604_800),
  // Zulip 11 (feature level 392): whether channel messages may go to the empty topic ("general chat").
  define({
    name: 'topics_policy',
    type: t.string,
    who: 'admin',
    stored: { in: 'settings', key: 'topics_policy' },
    fallback: 'allow_empty_topic',
    registerKey: null, // the channels area's register section shows realm_topics_policy and realm_mandatory_topics
    validate: (value) => {
      if (value !== 'allow_empty_topic' && value !== 'disable_empty_topic') throw errors.badRequest('Invalid topics_policy');
      return value;
    },
  }),
  // The Welcome Bot's note to new people (server/actions/onboarding.ts); Zulip's 8,000-character limit.
  define({
    name: 'welcome_message_custom_text',
    type: t.string,
    who: 'admin',
    stored: { in: 'settings', key: 'welcome_message_custom_text' },
    fallback: '',
    validate: (value) => {
      if (value.length > MAX_WELCOME_TEXT_LENGTH) throw errors.badRequest(`welcome_message_custom_text is too long (limit: ${MAX_WELCOME_TEXT_LENGTH} characters)`);
      return value;
    },
  }),
  // Shown to people in clients; Hearth itself needs no language or organization type.
  define({ name: 'default_language', type: t.string, who: 'admin', stored: { in: 'settings', key: 'default_language' }, fallback: 'en', validate: checkLanguage }),
  define({
    name: 'default_code_block_language',
    type: t.string,
    who: 'admin',
    stored: { in: 'settings', key: 'default_code_block_language' },
    fallback: '',
    validate: (value) => {
      if (value.length > 40 || !/^[\w.+#-]*$/.test(value)) throw errors.badRequest('Invalid default_code_block_language');
      return value;
    },
  }),
  define({
    name: 'org_type',
    type: t.int,
    who: 'owner',
    stored: { in: 'settings', key: 'org_type' },
    fallback: 0,
    validate: (value) => {
      if (!ORG_TYPES.includes(value)) throw errors.badRequest('Invalid org_type');
      return value;
    },
  }),
  // Zulip 9/10 (feature levels 216, 348): mark guests and warn before messaging one.
  define({ name: 'enable_guest_user_indicator', type: t.bool, who: 'admin', stored: { in: 'settings', key: 'enable_guest_user_indicator' }, fallback: true }),
  define({ name: 'enable_guest_user_dm_warning', type: t.bool, who: 'admin', stored: { in: 'settings', key: 'enable_guest_user_dm_warning' }, fallback: true }),
  define({
    // Zulip 7.0 (feature level 163) made this a user setting with a realm default; Hearth keeps one
    // organization-wide value, which is what clients assume for every user.
    name: 'email_address_visibility',
    endpoint: 'user_settings_defaults',
    type: t.int,
    who: 'admin',
    stored: { in: 'settings', key: 'email_address_visibility' },
    fallback: EMAIL_VISIBILITY.EVERYONE,
    validate: (value) => {
      if (!(Object.values(EMAIL_VISIBILITY) as number[]).includes(value)) {
        throw errors.badRequest(`Invalid email_address_visibility ${value}`);
      }
      return value;
    },
  }),
  // Hearth's server switches (owners; never announced): server/lib/realm/server-settings.ts.
  ...SERVER_SETTINGS,
];

/** The stored value of a setting (its fallback when unset). */
export function readSetting(realm: RealmRecord, s: RealmSetting): unknown {
  if (s.stored.in === 'record') return realm[s.stored.key];
  const v = (realm.settings as unknown as Record<string, unknown>)[s.stored.key];
  return v === undefined ? s.fallback : v;
}

/** The current value of a setting, as the view compares and validates it. */
export function currentSetting(app: App, s: RealmSetting): unknown {
  return s.current ? s.current(app) : readSetting(app.store.realm.data.realm!, s);
}

/** A value as clients see it (events, responses). */
export const settingForApi = (app: App, s: RealmSetting, value: unknown): unknown =>
  s.forApi ? s.forApi(value, app) : value;

/** Stores a (validated) value. Only actions call this, inside a commit. */
export function writeSetting(realm: RealmRecord, s: RealmSetting, value: unknown): void {
  if (s.stored.in === 'record') realm[s.stored.key] = value as string;
  else (realm.settings as unknown as Record<string, unknown>)[s.stored.key] = value;
}

export const settingsOf = (endpoint: 'realm' | 'user_settings_defaults') =>
  [...REALM_SETTINGS, ...REALM_GROUP_SETTINGS].filter((s) => (s.endpoint ?? 'realm') === endpoint);

/** Register fields of the `realm` section that come from the table (user defaults excluded). */
export function realmRegisterFields(realm: RealmRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of settingsOf('realm')) {
    const key = s.registerKey === undefined ? `realm_${s.name}` : s.registerKey;
    if (key !== null && !s.secret) out[key] = readSetting(realm, s);
  }
  return out;
}

/** `realm_user_settings_defaults` (the settings of the table kept as user defaults). */
export function userDefaultsRegisterFields(realm: RealmRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of settingsOf('user_settings_defaults')) {
    if (s.registerKey !== null && !s.secret) out[s.registerKey ?? s.name] = readSetting(realm, s);
  }
  return out;
}
