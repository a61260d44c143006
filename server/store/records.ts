/**
 * Shapes of what Hearth keeps on disk, one file per collection (server/store/README.md lists the
 * files): this index re-exports them, so `store/records.js` names any of them. The channel,
 * message and attachment records are in channel-records.ts, message-records.ts and
 * attachment-records.ts.
 */
export type { Manifest } from './manifest-records.js';
export { DEFAULT_REALM_SETTINGS } from './realm-records.js';
export type { RealmSettings, RealmRecord, PlaygroundRecord, LinkifierRecord, RealmDoc } from './realm-records.js';
export { ROLE } from './user-records.js';
export type { UserRecord, BotSettings, UsersDoc, Role } from './user-records.js';
export { PROFILE_FIELD_TYPE } from './profile-field-records.js';
export type { ProfileFieldRecord, ProfileFieldsDoc } from './profile-field-records.js';
export type { ScheduledMessageRecord, ScheduledMessagesDoc } from './scheduled-message-records.js';
export type { InviteRecord, InvitesDoc } from './invite-records.js';
export type { DraftType, DraftRecord, DraftsDoc } from './draft-records.js';
export type { PushTokenRecord, DeviceRecord, DevicesDoc } from './device-records.js';
export type { RealmEmojiRecord, RealmEmojiDoc } from './emoji-records.js';
export type { OutgoingWebhookCallRecord, OutgoingWebhooksDoc } from './outgoing-webhook-records.js';
export type { CallRoomRecord, CallRoomsDoc, SavedCallParticipant } from './call-records.js';
