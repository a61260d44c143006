/**
 * Input checks shared by channel creation (POST /users/me/subscriptions) and
 * PATCH /streams/{stream_id}, with Zulip's wording.
 */
import type { App } from '../../context.js';
import { errors } from '../../errors.js';
import { decodeJson, type ParamType } from '../../params/params.js';
import type { ChannelRecord, GroupSettingValue, TopicsPolicy } from '../../store/channel-records.js';
import type { UserRecord } from '../../store/records.js';
import { LIMITS } from '../../version.js';
import { CHANNEL_SETTINGS, DELETE_POLICY_SETTINGS, hasRealmPermission } from './settings.js';
import { channelByName } from './access.js';
import { systemGroupId } from '../groups/groups.js';
import { parseGroupSettingUpdate, validateGroupSettingValue } from '../groups/setting-values.js';
import { isAdmin } from '../people/people.js';

/** Zulip's check_string_is_printable: the 1-based position of the first control/unassigned character. */
export function unprintablePosition(s: string): number | null {
  let i = 0;
  for (const ch of s) {
    i++;
    if (/[\p{Cc}\p{Cs}\p{Cn}]/u.test(ch)) return i;
  }
  return null;
}

/** Zulip's check_stream_name; returns the trimmed name. */
export function checkChannelName(raw: string): string {
  const name = raw.trim();
  if (name === '') throw errors.badRequest("Channel name can't be empty.");
  if ([...name].length > LIMITS.max_stream_name_length) {
    throw errors.badRequest(`Channel name too long (limit: ${LIMITS.max_stream_name_length} characters).`);
  }
  const pos = unprintablePosition(name);
  if (pos !== null) throw errors.badRequest(`Invalid character in channel name, at position ${pos}.`);
  return name;
}

/** A free name for a new or renamed channel (case-insensitively unique; `self` may keep its own). */
export function checkChannelNameAvailable(app: App, raw: string, self?: ChannelRecord): string {
  const name = checkChannelName(raw);
  const existing = channelByName(app, name);
  if (existing && existing !== self) throw errors.channelExists(name);
  return name;
}

/** Descriptions are one line (Zulip replaces newlines) of at most max_stream_description_length. */
export function checkChannelDescription(raw: string, param = 'description'): string {
  if ([...raw].length > LIMITS.max_stream_description_length) {
    throw errors.badRequest(`${param} is too long (limit: ${LIMITS.max_stream_description_length} characters)`);
  }
  return raw.replace(/\r?\n/g, ' ');
}

/** A parameter that clients send either raw or JSON-encoded (Zulip's `Json[str] | Json[int]`). */
export const rawOrJson: ParamType<unknown> = {
  read(raw) {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  },
};

/**
 * Zulip's parse_message_retention_days: a positive number of days,
 * `unlimited` (-1, keep forever) or `realm_default` (null, the organization's).
 */
export function parseRetentionDays(value: unknown): number | null {
  if (value === 'unlimited') return -1;
  if (value === 'realm_default') return null;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  throw errors.badRequest(`Bad value for 'message_retention_days': ${shownValue(value)}`);
}

/** A value for an error message: short, and never a throw (a deeply nested array overflows JSON.stringify). */
function shownValue(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    const json = JSON.stringify(value);
    return json.length > 100 ? `${json.slice(0, 100)}…` : json;
  } catch {
    return Array.isArray(value) ? '[…]' : '{…}';
  }
}

export const TOPICS_POLICIES: readonly TopicsPolicy[] = [
  'inherit',
  'allow_empty_topic',
  'disable_empty_topic',
  'empty_topic_only',
];

/** topics_policy, raw (PATCH) or JSON-encoded (subscribe). */
export const topicsPolicyParam: ParamType<TopicsPolicy> = {
  read(raw, name) {
    let value: unknown = raw;
    if (raw.startsWith('"')) value = decodeJson(raw, name);
    if (!TOPICS_POLICIES.includes(value as TopicsPolicy)) throw errors.badRequest(`Invalid ${name}: ${String(value)}`);
    return value as TopicsPolicy;
  },
};

/**
 * A new value for a channel setting (creation: the value itself; PATCH: `{new, old}`),
 * checked against the setting's allowed groups. Setting the delete permissions to
 * anything but role:nobody needs the organization's delete-policy permission.
 */
export function channelSettingValue(
  app: App,
  user: UserRecord,
  name: string,
  raw: unknown,
  current?: GroupSettingValue,
): GroupSettingValue {
  const opts = { allowEveryone: CHANNEL_SETTINGS[name]!.allowEveryone };
  const value =
    current === undefined
      ? validateGroupSettingValue(app, raw, name, opts)
      : parseGroupSettingUpdate(app, raw, current, name, opts);
  if (
    DELETE_POLICY_SETTINGS.has(name) &&
    value !== current &&
    value !== systemGroupId(app, 'role:nobody') &&
    !isAdmin(user) &&
    !hasRealmPermission(app, user, 'can_set_delete_message_policy_group')
  ) {
    throw errors.badRequest('Insufficient permission');
  }
  return value;
}

/**
 * A private channel with protected history must let everyone create topics
 * (can_create_topic_group exactly role:everyone).
 */
export function checkProtectedHistoryTopics(
  app: App,
  historyPublic: boolean,
  canCreateTopic: GroupSettingValue,
): void {
  if (historyPublic) return;
  if (canCreateTopic !== systemGroupId(app, 'role:everyone')) {
    throw errors.incompatibleParameters(['history_public_to_subscribers', 'can_create_topic_group']);
  }
}

/** `#rgb` or `#rrggbb`, stored as lowercase `#rrggbb`. */
export function checkColor(raw: string, name: string): string {
  const m = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.exec(raw);
  if (!m) throw errors.badRequest(`${name} is not a valid hex color code`);
  const hex = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  return `#${hex.toLowerCase()}`;
}
