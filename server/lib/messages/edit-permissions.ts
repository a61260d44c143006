/**
 * Who may delete, edit and move messages (Zulip's validate_can_delete_message,
 * check_user_can_edit_message and the move permissions): organization group
 * settings, the channel's own settings, and the organization's time limits.
 */
import type { App } from '../../context.js';
import { errors } from '../../errors.js';
import type { MessageRecord } from '../../store/message-records.js';
import type { RealmSettings, UserRecord } from '../../store/records.js';
import { channelById, inChannelSetting } from '../channels.js';
import { isUserInGroupSetting, realmGroupSetting, type RealmGroupSetting } from '../groups.js';
import { REALM_SETTINGS, readSetting } from '../realm-settings.js';

/** An organization setting's current value (stored, or Zulip's default). */
export function realmValue<K extends keyof RealmSettings>(app: App, name: K): RealmSettings[K] {
  const s = REALM_SETTINGS.find((x) => x.name === name);
  return (s ? readSetting(app.store.realm.data.realm!, s) : app.store.realm.data.realm!.settings[name]) as RealmSettings[K];
}

export const inRealmSetting = (app: App, user: UserRecord, name: RealmGroupSetting) =>
  isUserInGroupSetting(app, realmGroupSetting(app, name), user.id);

/** In the organization's setting, or (channel messages) the channel's setting of the same name. */
function holds(app: App, user: UserRecord, m: MessageRecord, name: RealmGroupSetting): boolean {
  if (inRealmSetting(app, user, name)) return true;
  const channel = m.stream_id === null ? undefined : channelById(app, m.stream_id);
  return channel !== undefined && inChannelSetting(app, user, channel, name);
}

/** Whether the message was sent by the user or by a bot the user owns. */
const ownMessage = (app: App, user: UserRecord, m: MessageRecord) =>
  m.sender_id === user.id || app.store.users.get(m.sender_id)?.bot_owner_id === user.id;

/** Seconds since the message was sent. */
export const ageSeconds = (app: App, m: MessageRecord) => Math.floor(app.clock.now() / 1000) - m.timestamp;

export function checkCanDelete(app: App, user: UserRecord, m: MessageRecord): void {
  if (holds(app, user, m, 'can_delete_any_message_group')) return;
  const denied = () => errors.badRequest("You don't have permission to delete this message");
  if (!ownMessage(app, user, m)) throw denied();
  if (!holds(app, user, m, 'can_delete_own_message_group')) throw denied();
  const limit = realmValue(app, 'message_content_delete_limit_seconds');
  if (limit != null && ageSeconds(app, m) > limit) {
    throw errors.badRequest('The time limit for deleting this message has passed');
  }
}
