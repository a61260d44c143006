/**
 * The dictionaries events carry (a user, a channel, a message, ...). Every event kind that holds
 * one takes the set of their types as a parameter: clients read them as the wire shapes
 * (`WireDicts`, the default); the server takes `BuiltDicts` (server/events/types.ts): the wire
 * shapes where its formatter returns one, plain dictionaries where it does not yet (a user's change, channels, subscriptions). So the compiler
 * checks each event's own fields on both sides, and the dictionaries' fields on the client's and,
 * where typed, on the server's.
 */
import type { ApiDict } from '../api-dict.js';
import type { Channel, ChannelFolder, Subscription } from '../channel.js';
import type { Draft } from '../draft.js';
import type { Message } from '../message.js';
import type { Reminder, ScheduledMessage } from '../scheduled-message.js';
import type { ProfileField, ProfileFieldValueChange, User } from '../user.js';
import type { UserGroup } from '../user-group.js';

/** Where a message marked unread again is (`update_message_flags` remove of `read`). */
export type UnreadMessageDetails =
  | { type: 'stream'; stream_id: number; topic: string; mentioned?: boolean; unmuted_stream_msg?: boolean }
  | { type: 'private'; user_ids: number[]; mentioned?: boolean };

export interface WireDicts {
  /** A `message` event's message (its flags travel beside it). */
  message: Omit<Message, 'flags'>;
  user: User;
  /** A `realm_user` update: the user's ID and the fields that changed (or one custom profile field's value). */
  userChange: { user_id: number } & Partial<User> & { custom_profile_field?: ProfileFieldValueChange };
  channel: Channel;
  subscription: Subscription;
  channelFolder: ChannelFolder;
  channelFolderChange: Partial<ChannelFolder>;
  group: UserGroup;
  groupChange: Partial<UserGroup>;
  draft: Draft;
  scheduledMessage: ScheduledMessage;
  reminder: Reminder;
  profileField: ProfileField;
  unreadDetails: UnreadMessageDetails;
}

/**
 * The same dictionaries as the server's formatters build them: the wire shapes where the
 * formatter returns one (TypedOnServer), else plain dictionaries (a user's change, channels and
 * subscriptions so far).
 */
export type BuiltDicts = {
  [K in keyof WireDicts]: K extends 'userChange' ? { user_id: number } & ApiDict : K extends TypedOnServer ? WireDicts[K] : ApiDict;
};

/** The dictionaries whose server formatters return the wire shape. */
type TypedOnServer = 'message' | 'user' | 'unreadDetails' | 'channelFolder' | 'draft' | 'scheduledMessage' | 'reminder' | 'profileField' | 'group';

/** What an event's dictionaries may be. */
export type Dicts = { [K in keyof WireDicts]: object };
