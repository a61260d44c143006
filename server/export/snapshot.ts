/**
 * One instant of the organization, for an export: everything an export reads, taken in one
 * synchronous step (actions mutate memory synchronously, so nothing changes during it), as the
 * backup does. Messages sent afterwards are not in the export, so it never holds a message whose
 * channel or sender it lacks. File bytes (uploads, emoji images) are read later from disk: they
 * are written once and never changed.
 *
 * Messages are not copied into memory (5 million would be gigabytes, and seconds of a frozen
 * server): each segment file that holds what memory holds is hard-linked into a folder of the
 * export's (a segment is changed by writing a new file over it, never in place, except the open
 * segment), and only the others (the open segment, any with a write in flight) are copied. The
 * export then reads one segment at a time (`SnapshotMessages`); `release()` removes the links.
 */
import { copyFileSync, linkSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { App } from '../context.js';
import { systemBots } from '../lib/people/system-bots.js';
import type { AttachmentRecord } from '../store/attachment-records.js';
import type { ChannelFolderRecord, ChannelRecord, SubscriptionRecord, UserGroupRecord } from '../store/channel-records.js';
import type { MessageRecord, ReactionRecord, SubmessageRecord } from '../store/message-records.js';
import type { ProfileFieldRecord, RealmEmojiRecord, RealmRecord, UserRecord } from '../store/records.js';
import { readSegmentItems } from '../store/segment-files.js';

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
  /** Ascending by ID, a segment at a time. */
  messages: SnapshotMessages;
  /** Folders in the data dir the file bytes are read from. */
  dataDir: string;
}

const copy = <T>(value: T): T => structuredClone(value);

function project(m: MessageRecord): SnapshotMessage {
  return {
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
  };
}

/** Where snapshots' links go: under `exports/`, which backups leave out. */
const LINKS_PREFIX = '.snapshot-';

type Part = { file: string; first: number } | { items: SnapshotMessage[] };

/** A snapshot's messages: read a segment at a time, ascending by ID. */
export class SnapshotMessages {
  constructor(
    private readonly parts: Part[],
    private readonly segmentSize: number,
    /** Messages at the instant. */
    readonly count: number,
    private readonly linksDir: string | null,
  ) {}

  /** Each segment's messages (a linked file is read when its turn comes). */
  *segments(): Generator<SnapshotMessage[]> {
    for (const p of this.parts) {
      if ('items' in p) yield p.items;
      else yield readSegmentItems<MessageRecord>(p.file, p.first, this.segmentSize).items.map(project);
    }
  }

  *[Symbol.iterator](): Generator<SnapshotMessage> {
    for (const seg of this.segments()) yield* seg;
  }

  /**
   * Removes the links (the export is written, or failed). Never throws: a folder that cannot be
   * removed now (a virus scanner holding a file) goes at the next export or start.
   */
  release(): void {
    if (this.linksDir) removeQuietly(this.linksDir);
  }
}

function removeQuietly(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
  } catch {
    // Left for removeExportLeftovers.
  }
}

/** Links and work folders an export left when the process stopped in the middle of it (called at start). */
export function removeExportLeftovers(dataDir: string): void {
  const dir = join(dataDir, 'exports');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) if (name.startsWith(LINKS_PREFIX) || name.endsWith('.tmp')) removeQuietly(join(dir, name));
}

/** The messages as of now: clean segment files linked into `exports/.snapshot-<time>`, the others copied. */
function snapshotMessages(app: App): SnapshotMessages {
  const items = app.store.messages.items;
  const exportsDir = join(app.config.dataDir, 'exports');
  mkdirSync(exportsDir, { recursive: true, mode: 0o700 });
  // One export at a time (the server's, or the command's on a data dir no server uses): links left by a stop mid-export go.
  for (const name of readdirSync(exportsDir)) if (name.startsWith(LINKS_PREFIX)) removeQuietly(join(exportsDir, name));
  const linksDir = join(exportsDir, `${LINKS_PREFIX}${app.clock.now()}`);
  mkdirSync(linksDir, { mode: 0o700 });
  const parts: Part[] = [];
  try {
    for (const f of items.files()) {
      if (f.first === undefined) continue;
      if (f.clean) {
        // A file system without hard links (exFAT, some network shares): a copy of the file, still not in memory.
        const link = join(linksDir, basename(f.file));
        try {
          linkSync(f.file, link);
        } catch {
          copyFileSync(f.file, link);
        }
        parts.push({ file: link, first: f.first });
        continue;
      }
      parts.push({ items: (f.data as MessageRecord[]).map(project) });
    }
  } catch (err) {
    removeQuietly(linksDir);
    throw err;
  }
  return new SnapshotMessages(parts, items.segmentSize, app.store.messages.size, linksDir);
}

/** Takes the snapshot (synchronous: call it only once the store has no write half-applied). Release its messages when done. */
export function takeSnapshot(app: App): Snapshot {
  const { store } = app;
  const realm = store.realm.data.realm;
  if (!realm) throw new Error('There is no organization to export yet.');
  const messages = snapshotMessages(app);
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
