/**
 * An organization as the documents of a Rocket.Chat database, exactly as Zulip's converter
 * (zerver/data_import/rocketchat.py) reads them. Pure: a snapshot in, documents out; the
 * writer (rocketchat-export.ts) turns them into BSON files and reads the file bytes.
 *
 * - each channel is a room (`t: 'c'` or `'p'`); each of its topics a discussion room
 *   (`prid` = the channel's room, `fname` = the topic) holding that topic's messages;
 * - direct conversations are `t: 'd'` rooms listing `uids` (three or more people: a group);
 * - people: `type: 'user'` or `'bot'`, `roles` `admin` (owners and administrators: the
 *   converter makes both owners; the fix-up sets administrators back) or `guest`;
 * - a message linking several uploads becomes several messages in order, one file each;
 * - IDs are readable and stable: `u7` person 7, `c3` channel 3, `c3t2` its second topic,
 *   `d1-4` a conversation, `m120` message 120 (`m120f2` its second file), `f9` upload 9.
 */
import type { Snapshot, SnapshotMessage } from './snapshot.js';
import { convertContent, type PeopleIndex } from './content.js';
import { widgetText } from '../lib/messages/widget-text.js';
import { assignUsernames } from './usernames.js';
import { MSG_BIT } from '../store/message-records.js';
import { ROLE } from '../store/records.js';

export type Doc = Record<string, unknown>;

/** What Zulip's converter appends to a discussion's name, and its topic length limit. */
const IMPORTED_SUFFIX = ' (Imported from Rocket.Chat)';
const MAX_NAME = 60;
export const GRIDFS_CHUNK = 255 * 1024;

/** The topic name Zulip's converter gives a discussion (its truncate_name, in code points as Python counts). */
export function importedTopicName(fname: string, rid: string): string {
  const name = [...`${fname}${IMPORTED_SUFFIX}`];
  if (name.length <= MAX_NAME) return name.join('');
  const suffix = ` [${rid}]`;
  return name.slice(0, MAX_NAME - [...suffix].length).join('') + suffix;
}

/** Which conversations an export holds: everything, public channels only, or Zulip's "standard" rule. */
export type ExportScope = 'full' | 'public' | 'consented';

export interface UploadFile {
  attachmentId: number;
  doc: Doc;
  /** Relative to `uploads/files/` in the data dir. */
  storage: string;
  size: number;
}

export interface EmojiFile {
  doc: Doc;
  fileDoc: Doc;
  /** File name under `emoji/` in the data dir. */
  file: string;
}

export interface RocketChatPlan {
  instance: Doc;
  users: Doc[];
  rooms: Doc[];
  emoji: EmojiFile[];
  uploads: UploadFile[];
  /** The messages in order, converted as they are read (a message with several files split). */
  messages: () => Generator<Doc>;
  /** Hearth messages in the export (before splitting). */
  messageCount: number;
  reactionCount: number;
}

const date = (seconds: number) => new Date(seconds * 1000);

export async function buildPlan(snap: Snapshot, scope: ExportScope = 'full', consenting: Set<number> = new Set(), stopping: () => boolean = () => false): Promise<RocketChatPlan> {
  const usernames = assignUsernames(snap.users);
  const people: PeopleIndex = { usernames, byName: new Map(), fullNames: new Map() };
  for (const u of snap.users) {
    people.fullNames.set(u.id, u.full_name);
    const key = u.full_name.toLowerCase();
    people.byName.set(key, [...(people.byName.get(key) ?? []), u.id]);
  }
  const userById = new Map(snap.users.map((u) => [u.id, u]));
  const channelInScope = (c: { invite_only: boolean }) => scope !== 'public' || !c.invite_only;
  const channels = snap.channels.filter(channelInScope);
  const channelById = new Map(channels.map((c) => [c.id, c]));
  const adminGroupIds = new Set(snap.groups.filter((g) => g.is_system_group && ['role:administrators', 'role:owners'].includes(g.name)).map((g) => g.id));

  const messageInScope = (m: SnapshotMessage): boolean => {
    if (m.stream_id !== null) {
      const c = channelById.get(m.stream_id);
      if (!c) return false;
      return scope !== 'consented' || !c.invite_only || consenting.has(m.sender_id);
    }
    if (scope === 'public') return false;
    if (scope === 'full') return true;
    return (m.dm ?? [m.sender_id]).every((id) => userById.get(id)?.is_bot || consenting.has(id));
  };

  // Rooms for topics and conversations, in the order their first message comes.
  const topicRooms = new Map<string, Doc & { _id: string; msgs: number; fname: string }>();
  const topicSeq = new Map<number, number>();
  const dmRooms = new Map<string, Doc & { msgs: number }>();
  const topicKeyOf = (m: SnapshotMessage) => `${m.stream_id}\u0000${m.topic.toLowerCase()}`;
  const dmRoomOf = (m: SnapshotMessage) => {
    const uids = [...new Set(m.dm ?? [m.sender_id])].sort((a, b) => a - b);
    return { uids, rid: `d${uids.join('-')}` };
  };
  /** The room of a message in scope (made on its first message). */
  const roomOf = (m: SnapshotMessage): string => {
    if (m.stream_id === null) {
      const { uids, rid } = dmRoomOf(m);
      let room = dmRooms.get(rid);
      if (!room) {
        room = { _id: rid, t: 'd', uids: uids.map((id) => `u${id}`), usernames: uids.map((id) => usernames.get(id)), ts: date(m.timestamp), msgs: 0 };
        dmRooms.set(rid, room);
      }
      room.msgs += 1;
      return rid;
    }
    const key = topicKeyOf(m);
    let room = topicRooms.get(key);
    if (!room) {
      const n = (topicSeq.get(m.stream_id) ?? 0) + 1;
      topicSeq.set(m.stream_id, n);
      const c = channelById.get(m.stream_id)!;
      const id = `c${c.id}t${n}`;
      room = { _id: id, t: c.invite_only ? 'p' : 'c', prid: `c${c.id}`, name: id, fname: m.topic, ts: date(m.timestamp), msgs: 0 };
      topicRooms.set(key, room);
    }
    room.fname = m.topic; // the latest spelling of the topic's name
    room.msgs += 1;
    return room._id;
  };
  // Uploads linked from an exported message (Zulip's Attachment.messages): of the messages uploads name, those in scope.
  const named = new Set(snap.attachments.flatMap((a) => a.message_ids));
  const exportedNamed = new Set<number>();
  let messageCount = 0;
  let reactionCount = 0;

  // The first pass makes the rooms and counts, a segment at a time with a turn of the event loop
  // between segments (an export runs beside the server); the second, the messages' documents.
  for (const segment of snap.messages.segments()) {
    for (const m of segment) {
      if (!messageInScope(m)) continue;
      roomOf(m);
      messageCount += 1;
      if (named.has(m.id)) exportedNamed.add(m.id);
      reactionCount += m.reactions.filter((r) => usernames.has(r.user_id)).length;
    }
    await new Promise((r) => setImmediate(r));
    if (stopping()) throw new Error('Hearth stopped before the export was finished');
  }

  const exportedAttachments = snap.attachments.filter((a) => a.message_ids.some((id) => exportedNamed.has(id)));
  const attachmentsByPath = new Map(exportedAttachments.map((a) => [a.path_id, a.id]));
  const attachmentById = new Map(exportedAttachments.map((a) => [a.id, a]));

  function* messageDocs(): Generator<Doc> {
    for (const m of snap.messages) {
      if (!messageInScope(m)) continue;
      yield* messageToDocs(m, m.stream_id === null ? dmRoomOf(m).rid : topicRooms.get(topicKeyOf(m))!._id);
    }
  }

  function messageToDocs(m: SnapshotMessage, rid: string): Doc[] {
    // Zulip's importer has no submessages: a poll or to-do list goes as text, with its votes or ticks.
    const widget = m.submessages ? widgetText(m, (id) => people.fullNames.get(id) ?? '') : null;
    const converted = convertContent(widget ?? m.content, people, attachmentsByPath);
    const reactions: Record<string, { usernames: string[] }> = {};
    for (const r of m.reactions) {
      const name = usernames.get(r.user_id);
      if (name) (reactions[`:${r.emoji_name}:`] ??= { usernames: [] }).usernames.push(name);
    }
    const base: Doc = {
      rid,
      ts: date(m.timestamp),
      u: { _id: `u${m.sender_id}`, username: usernames.get(m.sender_id) },
      _updatedAt: date(m.timestamp),
      mentions: [...converted.mentions.map((id) => ({ _id: `u${id}`, username: usernames.get(id) })), ...(converted.wildcard ? [{ _id: 'all', username: 'all' }] : [])],
      channels: [],
    };
    const files = converted.files.filter((id) => attachmentById.has(id));
    const docs: Doc[] = [];
    for (let k = 0; k < Math.max(1, files.length); k++) {
      const doc: Doc = { _id: k === 0 ? `m${m.id}` : `m${m.id}f${k + 1}`, ...base, msg: k === 0 ? converted.text : '' };
      if (k === 0) {
        if (Object.keys(reactions).length) doc.reactions = reactions;
        if ((m.bits & MSG_BIT.has_link) !== 0) doc.urls = [{ url: '' }];
      } else doc.mentions = [];
      const fileId = files[k];
      if (fileId !== undefined) {
        const a = attachmentById.get(fileId)!;
        doc.file = { _id: `f${a.id}`, name: a.file_name, type: a.content_type || 'application/octet-stream' };
        doc.files = [doc.file];
      }
      docs.push(doc);
    }
    return docs;
  }

  const subscribedRooms = new Map<number, string[]>();
  const roomMembers = new Map<number, number>();
  for (const s of snap.subscriptions) {
    if (!s.active || !channelById.has(s.stream_id)) continue;
    subscribedRooms.set(s.user_id, [...(subscribedRooms.get(s.user_id) ?? []), `c${s.stream_id}`]);
    roomMembers.set(s.stream_id, (roomMembers.get(s.stream_id) ?? 0) + 1);
  }
  const msgsByChannel = new Map<string, number>();
  for (const r of topicRooms.values()) msgsByChannel.set(r.prid as string, (msgsByChannel.get(r.prid as string) ?? 0) + r.msgs);

  const channelRooms: Doc[] = channels.map((c) => {
    const posting = c.settings.can_send_message_group;
    return {
      _id: `c${c.id}`,
      t: c.invite_only ? 'p' : 'c',
      name: c.name,
      fname: c.name,
      description: c.description,
      ts: date(c.date_created),
      _updatedAt: date(c.date_created),
      ro: typeof posting === 'number' && adminGroupIds.has(posting),
      default: c.is_default_stream,
      archived: c.is_archived,
      msgs: msgsByChannel.get(`c${c.id}`) ?? 0,
      usersCount: roomMembers.get(c.id) ?? 0,
      ...(c.creator_id !== null && usernames.has(c.creator_id) ? { u: { _id: `u${c.creator_id}`, username: usernames.get(c.creator_id) } } : {}),
    };
  });

  const users: Doc[] = snap.users.map((u) => ({
    _id: `u${u.id}`,
    createdAt: new Date(Date.parse(u.date_joined) || snap.taken),
    username: usernames.get(u.id),
    name: u.full_name,
    emails: [{ address: u.email, verified: true }],
    type: u.is_bot ? 'bot' : 'user',
    active: u.is_active,
    roles: u.is_bot ? ['bot'] : u.role <= ROLE.ADMIN ? ['admin'] : u.role === ROLE.GUEST ? ['guest'] : ['user'],
    utcOffset: 0,
    __rooms: subscribedRooms.get(u.id) ?? [],
  }));

  const uploads: UploadFile[] = exportedAttachments.map((a) => {
    const ext = a.file_name.includes('.') ? a.file_name.split('.').pop()!.toLowerCase() : '';
    return {
      attachmentId: a.id,
      storage: a.storage,
      size: a.size,
      doc: {
        _id: `f${a.id}`,
        name: a.file_name,
        size: a.size,
        type: a.content_type || 'application/octet-stream',
        extension: ext,
        store: 'GridFS:Uploads',
        complete: true,
        uploading: false,
        progress: 1,
        userId: `u${a.owner_id}`,
        uploadedAt: new Date(a.create_time),
        _updatedAt: new Date(a.create_time),
        description: '',
      },
    };
  });

  const emoji: EmojiFile[] = snap.emoji
    .filter((e) => !e.deactivated)
    .map((e) => {
      const extension = (e.file.split('.').pop() ?? 'png').toLowerCase();
      const fileName = `${e.name}.${extension}`;
      return {
        file: e.file,
        doc: { _id: `e${e.id}`, name: e.name, aliases: [], extension, _updatedAt: date(e.created) },
        fileDoc: { _id: fileName, filename: fileName, contentType: e.content_type, chunkSize: GRIDFS_CHUNK, uploadDate: date(e.created) },
      };
    });

  return {
    instance: { _id: 'hearth', name: snap.realm.name, _createdAt: date(snap.realm.date_created), _updatedAt: new Date(snap.taken) },
    users,
    rooms: [...channelRooms, ...topicRooms.values(), ...dmRooms.values()],
    emoji,
    uploads,
    messages: messageDocs,
    messageCount,
    reactionCount,
  };
}
