/**
 * One instant of the organization, for an export: everything an export reads, copied from
 * memory in one synchronous step (actions mutate memory synchronously, so nothing changes
 * during it), as the backup does. Messages sent afterwards are not in the export, so it
 * never holds a message whose channel or sender it lacks. File bytes (uploads, emoji
 * images) are read later from disk: they are written once and never changed.
 */
import type { App } from '../context.js';
import { systemBots } from '../lib/people/system-bots.js';
import type { AttachmentRecord } from '../store/attachment-records.js';
import type { ChannelFolderRecord, ChannelRecord, SubscriptionRecord, UserGroupRecord } from '../store/channel-records.js';
import type { MessageRecord, ReactionRecord, SubmessageRecord } from '../store/message-records.js';
import type { ProfileFieldRecord, RealmEmojiRecord, RealmRecord, UserRecord } from '../store/records.js';

/** The fields of a message an export reads (a copy: edits after the snapshot do not reach it). */
export interface SnapshotMessage {
  id: number;
  sender_id: number;
  stream_id: number | null;
  topic: string;
  dm?: number[];
  content: string;
  timestamp: number;
  bits: number;
  reactions: ReactionRecord[];
  /** A poll's or to-do list's widget and events (absent: none). */
  submessages?: SubmessageRecord[];
}

export interface Snapshot {
  /** Unix milliseconds when it was taken. */
  taken: number;
  realm: RealmRecord;
  users: UserRecord[];
  channels: ChannelRecord[];
  subscriptions: SubscriptionRecord[];
  groups: UserGroupRecord[];
  folders: ChannelFolderRecord[];
  profileFields: ProfileFieldRecord[];
  emoji: RealmEmojiRecord[];
  attachments: AttachmentRecord[];
  /** Ascending by ID. */
  messages: SnapshotMessage[];
  /** Folders in the data dir the file bytes are read from. */
  dataDir: string;
}

const copy = <T>(value: T): T => structuredClone(value);

/** Takes the snapshot (synchronous: call it only once the store has no write half-applied). */
export function takeSnapshot(app: App): Snapshot {
  const { store } = app;
  const realm = store.realm.data.realm;
  if (!realm) throw new Error('There is no organization to export yet.');
  const messages: SnapshotMessage[] = [];
  for (const m of store.messages.all() as Iterable<MessageRecord>) {
    messages.push({
      id: m.id,
      sender_id: m.sender_id,
      stream_id: m.stream_id,
      topic: m.topic,
      ...(m.dm ? { dm: [...m.dm] } : {}),
      content: m.content,
      timestamp: m.timestamp,
      bits: m.bits ?? 0,
      reactions: m.reactions ? m.reactions.map((r) => ({ ...r })) : [],
      ...(m.submessages ? { submessages: m.submessages.map((s) => ({ ...s })) } : {}),
    });
  }
  messages.sort((a, b) => a.id - b.id);
  return {
    taken: app.clock.now(),
    realm: copy(realm),
    // The system bots (Notification Bot, Welcome Bot) are not stored among the users but send messages.
    users: copy([...store.users.all(), ...systemBots(app)]),
    channels: copy(store.channels.data.channels),
    subscriptions: copy(store.subscriptions.data.subscriptions),
    groups: copy(store.groups.data.groups),
    folders: copy(store.channelFolders.data.folders),
    profileFields: copy(store.profileFields.data.fields),
    emoji: copy(store.emoji.data.emoji),
    attachments: copy(store.attachments.collection.data.attachments),
    messages,
    dataDir: app.config.dataDir,
  };
}
