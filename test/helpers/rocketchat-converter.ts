/**
 * What Zulip's Rocket.Chat converter (zerver/data_import/rocketchat.py) makes of an export, reduced
 * to what tests compare: it reads exactly the fields the converter reads, with the same rules
 * (rooms with `prid` are discussions whose messages land in the parent channel under
 * "<fname> (Imported from Rocket.Chat)", cut to 60 characters with " [<rid>]"; `t: 'd'` rooms
 * with more than two `uids` are groups; `admin` makes an owner, `guest` a guest, any type but
 * `user` an inactive account; a channel nobody lists in `__rooms` is deactivated; messages with a
 * `t` are skipped; `@username` of a mentioned person becomes `@**Full Name**`, then `@all` and
 * `@here` become `@**all**`; a `file` appends "\n\n[name](url)"; reactions name `:emoji:` keys
 * and usernames). It throws where the converter would crash (a missing key or reference).
 */
import { BSON, type Document } from 'bson';

export interface ConvertedMessage {
  id: string;
  sender: string;
  /** Channel name, or null for a direct message. */
  channel: string | null;
  topic: string;
  /** Direct messages: every participant's email, sorted. */
  dm: string[] | null;
  content: string;
  mentioned: string[];
  wildcard: boolean;
  reactions: { name: string; email: string }[];
  file: { name: string; type: string; bytes: Buffer } | null;
  date: number;
}

export interface Converted {
  realmCreated: Date;
  users: { email: string; fullName: string; shortName: string; role: 'owner' | 'member' | 'guest'; isBot: boolean; isActive: boolean }[];
  channels: { name: string; inviteOnly: boolean; description: string; subscribers: string[]; deactivated: boolean; adminsOnly: boolean }[];
  messages: ConvertedMessage[];
  emoji: { name: string; fileName: string; bytes: Buffer }[];
}

export function decodeAll(buf: Buffer | undefined): Document[] {
  if (!buf) throw new Error('file missing');
  const out: Document[] = [];
  let at = 0;
  while (at < buf.length) {
    const size = buf.readInt32LE(at);
    out.push(BSON.deserialize(buf.subarray(at, at + size)));
    at += size;
  }
  return out;
}

const need = <T>(value: T | undefined | null, what: string): T => {
  if (value === undefined || value === null) throw new Error(`converter would fail: ${what}`);
  return value;
};

export function truncateName(name: string, id: string, max = 60): string {
  const chars = [...name];
  if (chars.length <= max) return name;
  const suffix = ` [${id}]`;
  return chars.slice(0, max - [...suffix].length).join('') + suffix;
}

function gridFs(files: Document[], chunks: Document[]): Map<string, Buffer> {
  const parts = new Map<string, { n: number; data: Buffer }[]>();
  for (const f of files) parts.set(String(f._id), []);
  for (const c of chunks) parts.get(String(c.files_id))?.push({ n: c.n as number, data: Buffer.from((c.data as { buffer: Uint8Array }).buffer) });
  return new Map([...parts].map(([id, list]) => [id, Buffer.concat(list.map((p) => p.data))]));
}

/** `files`: the export folder's files by name (e.g. from the .tar.gz). */
export function convert(files: Map<string, Buffer>): Converted {
  const read = (name: string) => decodeAll(files.get(name));
  const instance = read('instances.bson');
  const users = read('users.bson');
  const rooms = read('rocketchat_room.bson');
  const messages = read('rocketchat_message.bson');
  const emojiDocs = read('rocketchat_custom_emoji.bson');
  const uploads = read('rocketchat_uploads.bson');
  read('rocketchat_avatars.bson');
  const uploadBytes = uploads.length ? gridFs(read('rocketchat_uploads.files.bson'), read('rocketchat_uploads.chunks.bson')) : new Map();
  const emojiBytes = emojiDocs.length ? gridFs(read('custom_emoji.files.bson'), read('custom_emoji.chunks.bson')) : new Map();

  const userById = new Map<string, Document>(users.map((u) => [String(u._id), u]));
  const userByName = new Map<string, Document>(users.map((u) => [String(u.username), u]));
  const emailOf = (u: Document) => String(need(u.emails?.[0]?.address, `email of ${String(u._id)}`));
  const channelRooms = new Map<string, Document>();
  const discussions = new Map<string, Document>();
  const directs = new Map<string, Document>();
  for (const r of rooms) {
    if (r.prid) discussions.set(String(r._id), r);
    else if (r.t === 'd') {
      need(r.uids, 'uids of a direct room');
      if (r.uids.length > 2) need(r.msgs, 'msgs of a group room');
      directs.set(String(r._id), r);
    } else channelRooms.set(String(r._id), r);
  }
  const subscribers = new Map<string, string[]>();
  for (const u of users) {
    for (const rid of (u.__rooms as string[] | undefined) ?? []) {
      if (discussions.has(rid)) continue;
      subscribers.set(rid, [...(subscribers.get(rid) ?? []), emailOf(u)]);
    }
  }
  const out: Converted = {
    realmCreated: need(instance[0]?._createdAt as Date, 'instance _createdAt'),
    users: users.map((u) => {
      need(u.createdAt as Date, 'createdAt');
      const roles = need(u.roles as string[], 'roles');
      return {
        email: emailOf(u),
        fullName: need(u.name as string, 'name'),
        shortName: need(u.username as string, 'username'),
        role: roles.includes('admin') ? 'owner' : roles.includes('guest') ? 'guest' : 'member',
        isBot: u.type === 'bot',
        isActive: need(u.type as string, 'type') === 'user',
      };
    }),
    channels: [...channelRooms.values()].map((r) => {
      need(r.ts as Date, 'room ts');
      return {
        name: truncateName(need(r.name as string, 'room name'), String(r._id)),
        inviteOnly: r.t === 'p',
        description: (r.description as string | undefined) ?? '',
        subscribers: (subscribers.get(String(r._id)) ?? []).sort(),
        deactivated: !subscribers.has(String(r._id)),
        adminsOnly: r.ro === true,
      };
    }),
    messages: [],
    emoji: emojiDocs.map((e) => {
      const fileId = `${need(e.name as string, 'emoji name')}.${need(e.extension as string, 'emoji extension')}`;
      need(e.aliases, 'emoji aliases');
      return { name: e.name as string, fileName: fileId, bytes: need(emojiBytes.get(fileId), `emoji file ${fileId}`) };
    }),
  };
  const uploadById = new Map(uploads.map((u) => [String(u._id), u]));
  for (const m of messages) {
    if (m.t !== undefined && m.t !== null) continue;
    const sender = need(userById.get(String(need(m.u?._id, 'u._id'))), `sender ${String(m.u?._id)}`);
    let rid = String(need(m.rid, 'rid'));
    let topic = 'Imported from Rocket.Chat';
    const dsc = discussions.get(rid);
    if (dsc && directs.has(String(dsc.prid))) rid = String(dsc.prid);
    let channel: string | null = null;
    let dm: string[] | null = null;
    if (directs.has(rid)) {
      dm = (directs.get(rid)!.uids as string[]).map((id) => emailOf(need(userById.get(id), `uid ${id}`))).sort();
      topic = '';
    } else if (dsc) {
      channel = truncateName(need(channelRooms.get(String(dsc.prid)), `parent ${String(dsc.prid)}`).name as string, String(dsc.prid));
      topic = truncateName(`${need(dsc.fname as string, 'fname')} (Imported from Rocket.Chat)`, rid);
    } else channel = need(channelRooms.get(rid), `room ${rid}`).name as string;
    const mentioned: string[] = [];
    let wildcard = false;
    let content = need(m.msg as string, 'msg');
    for (const mention of (m.mentions as Document[] | undefined) ?? []) {
      if (mention._id === 'all' || mention._id === 'here') wildcard = true;
      else {
        const u = need(userById.get(String(mention._id)), `mentioned ${String(mention._id)}`);
        mentioned.push(emailOf(u));
        content = content.split(`@${String(u.username)}`).join(`@**${String(u.name)}**`);
      }
    }
    content = content.split('@all').join('@**all**').split('@here').join('@**all**');
    const reactions: { name: string; email: string }[] = [];
    for (const [key, value] of Object.entries((m.reactions as Record<string, { usernames: string[] }> | undefined) ?? {})) {
      for (const username of value.usernames) {
        reactions.push({ name: key.split(':')[1]!, email: emailOf(need(userByName.get(username), `reacting ${username}`)) });
      }
    }
    let file: ConvertedMessage['file'] = null;
    if (m.file) {
      const up = need(uploadById.get(String(m.file._id)), `upload ${String(m.file._id)}`);
      need(up._updatedAt as Date, 'upload _updatedAt');
      need(up.size, 'upload size');
      const type = need(m.file.type as string, 'file type');
      file = { name: m.file.name as string, type, bytes: need(uploadBytes.get(String(m.file._id)), `chunks of ${String(m.file._id)}`) };
      content += `${(up.description as string | undefined) ?? ''}\n\n[${String(m.file.name)}](/user_uploads/NEW)`;
    }
    out.messages.push({
      id: String(m._id),
      sender: emailOf(sender),
      channel,
      topic,
      dm,
      content,
      mentioned,
      wildcard,
      reactions,
      file,
      date: Math.floor(need(m.ts as Date, 'ts').getTime() / 1000),
    });
  }
  return out;
}
