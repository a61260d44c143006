import { mkdir, open, readFile, readlink, rename, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Collection } from './collection.js';
import { CorruptFileError } from './durable-file.js';
import { CURRENT_SCHEMA_VERSION, migrations as allMigrations, type Migration } from './migrations.js';
import type { ChannelFoldersDoc, ChannelsDoc, SubscriptionsDoc, UserGroupsDoc } from './channel-records.js';
import type {
  DevicesDoc,
  DraftsDoc,
  InvitesDoc,
  Manifest,
  ProfileFieldsDoc,
  RealmDoc,
  RealmEmojiDoc,
  ScheduledMessagesDoc,
  UsersDoc,
} from './records.js';
import { UserTable } from './users.js';
import { MessageStore } from './messages.js';
import { AttachmentTable, isAttachmentsDoc, type AttachmentsDoc } from './attachment-records.js';
import { SessionTable, isSessionsDoc, type SessionsDoc } from './sessions.js';
import type { OutgoingWebhooksDoc } from './outgoing-webhook-records.js';
import type { CallRoomsDoc } from './call-records.js';
import { randomBytes } from 'node:crypto';
import { failureReason, isOutOfSpace } from './no-space.js';

export class StoreOpenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreOpenError';
  }
}

export interface StoreOptions {
  /** Take the data dir's lock file (default true); tests that open a dir twice read-only pass false. */
  lock?: boolean;
  /** Migrations to apply (default: the real list); tests pass their own. */
  migrations?: Migration[];
  /** Write nothing while opening (no manifest save): reloading after a failed write, when the disk may be full. */
  readOnlyOpen?: boolean;
  /**
   * Bytes of older message segment files kept in memory (read on demand beyond that); default
   * HEARTH_MESSAGE_CACHE_MB or 64 MB. The newest segment, and segments being written, always stay.
   */
  messageCacheBytes?: number;
}


/**
 * Everything Hearth keeps: one lowdb JSON file per collection in the data dir,
 * plus `manifest.json` with the schema version. Created once per server and
 * passed in; nothing here is a module global.
 */
export class Store {
  private constructor(
    readonly dataDir: string,
    readonly manifest: Collection<Manifest>,
    readonly realm: Collection<RealmDoc>,
    readonly users: UserTable,
    readonly drafts: Collection<DraftsDoc>,
    readonly groups: Collection<UserGroupsDoc>,
    readonly channels: Collection<ChannelsDoc>,
    readonly subscriptions: Collection<SubscriptionsDoc>,
    readonly channelFolders: Collection<ChannelFoldersDoc>,
    readonly messages: MessageStore,
    readonly profileFields: Collection<ProfileFieldsDoc>,
    readonly attachments: AttachmentTable,
    readonly devices: Collection<DevicesDoc>,
    readonly emoji: Collection<RealmEmojiDoc>,
    readonly scheduled: Collection<ScheduledMessagesDoc>,
    readonly invites: Collection<InvitesDoc>,
    readonly sessions: SessionTable,
    readonly outgoingWebhooks: Collection<OutgoingWebhooksDoc>,
    readonly callRooms: Collection<CallRoomsDoc>,
    private lockFile: string | null,
    /**
     * Why a write needed while opening failed for want of space (ENOSPC, EDQUOT), or null: the
     * store is then as on disk, and the server starts refusing changes until the disk takes a write.
     */
    readonly startWriteFailure: string | null = null,
  ) {}

  static async open(dataDir: string, opts: StoreOptions = {}): Promise<Store> {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    await mkdir(join(dataDir, 'uploads'), { recursive: true, mode: 0o700 });
    const lockFile = opts.lock === false ? null : await takeLock(dataDir);
    try {
      const manifest = await Collection.open<Manifest>(join(dataDir, 'manifest.json'), () => ({
        schemaVersion: CURRENT_SCHEMA_VERSION,
        createdAt: new Date().toISOString(),
      }));
      // Reopening (readOnlyOpen) reads a dir this process already migrated.
      if (!opts.readOnlyOpen) await migrate(dataDir, manifest, opts.migrations ?? allMigrations);
      const realm = await Collection.open<RealmDoc>(join(dataDir, 'realm.json'), () => ({ realm: null }));
      const users = await Collection.open<UsersDoc>(join(dataDir, 'users.json'), () => ({ nextId: 1, users: [] }));
      const drafts = await Collection.open<DraftsDoc>(join(dataDir, 'drafts.json'), () => ({ nextId: 1, drafts: [] }));
      const groups = await Collection.open<UserGroupsDoc>(join(dataDir, 'groups.json'), () => ({ nextId: 1, groups: [] }));
      const channels = await Collection.open<ChannelsDoc>(join(dataDir, 'channels.json'), () => ({ nextId: 1, channels: [] }));
      const subscriptions = await Collection.open<SubscriptionsDoc>(join(dataDir, 'subscriptions.json'), () => ({
        subscriptions: [],
      }));
      const channelFolders = await Collection.open<ChannelFoldersDoc>(join(dataDir, 'channel_folders.json'), () => ({
        nextId: 1,
        folders: [],
      }));
      const attachments = await Collection.open<AttachmentsDoc>(join(dataDir, 'attachments.json'), () => ({
        nextId: 1,
        secret: randomBytes(32).toString('hex'),
        attachments: [],
      }));
      const profileFields = await Collection.open<ProfileFieldsDoc>(join(dataDir, 'profile_fields.json'), () => ({
        nextId: 1,
        fields: [],
      }));
      const devices = await Collection.open<DevicesDoc>(join(dataDir, 'devices.json'), () => ({
        nextId: 1,
        devices: [],
        push_tokens: [],
      }));
      const emoji = await Collection.open<RealmEmojiDoc>(join(dataDir, 'emoji.json'), () => ({ nextId: 1, emoji: [] }));
      const scheduled = await Collection.open<ScheduledMessagesDoc>(join(dataDir, 'scheduled_messages.json'), () => ({
        nextId: 1,
        scheduled: [],
      }));
      const invites = await Collection.open<InvitesDoc>(join(dataDir, 'invites.json'), () => ({ nextId: 1, invites: [] }));
      const sessions = await Collection.open<SessionsDoc>(join(dataDir, 'sessions.json'), () => ({ sessions: [] }));
      const outgoingWebhooks = await Collection.open<OutgoingWebhooksDoc>(join(dataDir, 'outgoing_webhooks.json'), () => ({
        nextId: 1,
        calls: [],
      }));
      const callRooms = await Collection.open<CallRoomsDoc>(join(dataDir, 'call_rooms.json'), () => ({ rooms: [] }));
      for (const [c, check] of [
        [realm, (d: RealmDoc) => 'realm' in d],
        [users, (d: UsersDoc) => Array.isArray(d.users) && Number.isInteger(d.nextId)],
        [drafts, (d: DraftsDoc) => Array.isArray(d.drafts) && Number.isInteger(d.nextId)],
        [groups, (d: UserGroupsDoc) => Array.isArray(d.groups) && Number.isInteger(d.nextId)],
        [channels, (d: ChannelsDoc) => Array.isArray(d.channels) && Number.isInteger(d.nextId)],
        [subscriptions, (d: SubscriptionsDoc) => Array.isArray(d.subscriptions)],
        [channelFolders, (d: ChannelFoldersDoc) => Array.isArray(d.folders) && Number.isInteger(d.nextId)],
        [profileFields, (d: ProfileFieldsDoc) => Array.isArray(d.fields) && Number.isInteger(d.nextId)],
        [attachments, isAttachmentsDoc],
        [devices, (d: DevicesDoc) => Array.isArray(d.devices) && Array.isArray(d.push_tokens) && Number.isInteger(d.nextId)],
        [emoji, (d: RealmEmojiDoc) => Array.isArray(d.emoji) && Number.isInteger(d.nextId)],
        [scheduled, (d: ScheduledMessagesDoc) => Array.isArray(d.scheduled) && Number.isInteger(d.nextId)],
        [invites, (d: InvitesDoc) => Array.isArray(d.invites) && Number.isInteger(d.nextId)],
        [sessions, isSessionsDoc],
        [outgoingWebhooks, (d: OutgoingWebhooksDoc) => Array.isArray(d.calls) && Number.isInteger(d.nextId)],
        [callRooms, (d: CallRoomsDoc) => Array.isArray(d.rooms)],
      ] as const) {
        if (typeof c.data !== 'object' || c.data === null || !(check as (d: unknown) => boolean)(c.data)) {
          throw new CorruptFileError(c.file, 'unexpected structure');
        }
      }
      // Without the lock (a second reader beside a running server, or a rollback's reopen) nothing is rewritten.
      const messages = await MessageStore.open(join(dataDir, 'messages'), {
        writable: !opts.readOnlyOpen && opts.lock !== false,
        cacheBytes: opts.messageCacheBytes,
      });
      // Written only for a new data dir: a start writes nothing it does not change (a full disk starts).
      let startWriteFailure: string | null = null;
      if (!opts.readOnlyOpen && !manifest.loaded) {
        await manifest.save().catch((err: unknown) => {
          if (!isOutOfSpace(err)) throw err;
          startWriteFailure = failureReason(err);
        });
      }
      return new Store(
        dataDir,
        manifest,
        realm,
        new UserTable(users),
        drafts,
        groups,
        channels,
        subscriptions,
        channelFolders,
        messages,
        profileFields,
        new AttachmentTable(attachments),
        devices,
        emoji,
        scheduled,
        invites,
        new SessionTable(sessions),
        outgoingWebhooks,
        callRooms,
        lockFile,
        startWriteFailure,
      );
    } catch (err) {
      if (lockFile) await unlink(lockFile).catch(() => undefined);
      throw err;
    }
  }

  /**
   * The data dir as it is on disk, opened again without writing anything, for
   * rolling back in-memory changes whose write failed. Waits for every write in
   * flight first; the new store takes over the old one's lock.
   */
  static async reopen(old: Store): Promise<Store> {
    await old.settled();
    const fresh = await Store.open(old.dataDir, { lock: false, readOnlyOpen: true });
    fresh.lockFile = old.lockFile;
    old.lockFile = null;
    return fresh;
  }

  /** Resolves once every write requested so far is on disk. */
  async settled(): Promise<void> {
    await Promise.all([...this.collections().map((c) => c.settled()), this.messages.settled()]);
  }

  /** Every single-file collection (for settling, backups and size reports). */
  collections(): Collection<unknown>[] {
    return [
      this.manifest,
      this.realm,
      this.users.collection,
      this.drafts,
      this.groups,
      this.channels,
      this.subscriptions,
      this.channelFolders,
      this.profileFields,
      this.attachments.collection,
      this.devices,
      this.emoji,
      this.scheduled,
      this.invites,
      this.sessions.collection,
      this.outgoingWebhooks,
      this.callRooms,
    ] as Collection<unknown>[];
  }

  async close(): Promise<void> {
    await this.settled();
    if (this.lockFile) await unlink(this.lockFile).catch(() => undefined);
  }
}

async function migrate(dataDir: string, manifest: Collection<Manifest>, migrations: Migration[]): Promise<void> {
  const v = manifest.data.schemaVersion;
  const current = Math.max(CURRENT_SCHEMA_VERSION, ...migrations.map((m) => m.to));
  if (!Number.isInteger(v) || v < 1) throw new CorruptFileError(manifest.file, 'schemaVersion is missing');
  if (v > current) {
    throw new StoreOpenError(
      `The data dir ${dataDir} was written by a newer Hearth (schema ${v}; this one knows up to ${current}). Upgrade Hearth.`,
    );
  }
  for (const m of migrations) {
    if (m.to <= manifest.data.schemaVersion) continue;
    await m.run(dataDir);
    manifest.data.schemaVersion = m.to;
    await manifest.save();
  }
}

/**
 * One server per data dir: a lock file holding the owner's pid; a stale lock (dead pid) is taken over.
 * On a disk with no free byte the pid cannot be written into the file: the lock is then a symbolic
 * link whose target is the pid (a short link's target lives in its inode, no data block needed).
 */
async function takeLock(dataDir: string): Promise<string> {
  const file = join(dataDir, 'hearth.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await createLock(file);
      return file;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = await lockOwner(file);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new StoreOpenError(`The data dir ${dataDir} is in use by another Hearth server (pid ${pid}).`);
      }
      await unlink(file).catch(() => undefined);
    }
  }
  await writeFile(file, String(process.pid), { mode: 0o600 }).catch(async (err: unknown) => {
    if (!isOutOfSpace(err)) throw err;
    await lockAsLink(file);
  });
  return file;
}

async function createLock(file: string): Promise<void> {
  const h = await open(file, 'wx', 0o600);
  try {
    await h.writeFile(String(process.pid));
  } catch (err) {
    if (!isOutOfSpace(err)) throw err;
    await h.close();
    await lockAsLink(file);
    return;
  }
  await h.close();
}

/** Replaces the (empty) lock file with a link naming the pid, in one rename. */
async function lockAsLink(file: string): Promise<void> {
  const link = `${file}.link`;
  await unlink(link).catch(() => undefined);
  await symlink(String(process.pid), link);
  await rename(link, file);
}

/** The pid a lock names (a file holding it, or a link to it), NaN when unreadable. */
async function lockOwner(file: string): Promise<number> {
  const text = await readlink(file).catch(() => readFile(file, 'utf8').catch(() => ''));
  return Number(text.trim());
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
