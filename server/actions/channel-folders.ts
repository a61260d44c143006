import { unixSeconds } from '../clock.js';
import type { App } from '../context.js';
import { formatFolder } from '../lib/channels/format.js';
import { activeUserIds } from '../lib/channels/access.js';
import { renderChannelDescription } from '../lib/channels/description.js';
import type { ChannelFolderRecord } from '../store/channel-records.js';
import { commit } from './commit.js';

/** POST /channel_folders/create: appended last in the display order; every user hears of it. */
export async function doCreateChannelFolder(
  app: App,
  creatorId: number,
  name: string,
  description: string,
): Promise<ChannelFolderRecord> {
  return commit(app, (tx) => {
    const doc = app.store.channelFolders.data;
    const folder: ChannelFolderRecord = {
      id: doc.nextId++,
      name,
      description,
      rendered_description: renderChannelDescription(app, description, creatorId),
      order: doc.folders.reduce((max, f) => Math.max(max, f.order + 1), 0),
      date_created: unixSeconds(app.clock),
      creator_id: creatorId,
      is_archived: false,
    };
    doc.folders.push(folder);
    tx.touch(app.store.channelFolders);
    tx.emit({ type: 'channel_folder', op: 'add', channel_folder: formatFolder(folder) }, activeUserIds(app));
    return folder;
  });
}

export interface FolderChanges {
  name?: string;
  description?: string;
  is_archived?: boolean;
}

/** PATCH /channel_folders/{id}: one `update` event per changed field, as Zulip sends them. */
export async function doUpdateChannelFolder(
  app: App,
  folder: ChannelFolderRecord,
  changes: FolderChanges,
  actingUserId: number,
): Promise<void> {
  const updates: Record<string, unknown>[] = [];
  if (changes.name !== undefined && changes.name !== folder.name) updates.push({ name: changes.name });
  if (changes.description !== undefined && changes.description !== folder.description) {
    const rendered = renderChannelDescription(app, changes.description, actingUserId);
    updates.push({ description: changes.description, rendered_description: rendered });
  }
  if (changes.is_archived !== undefined && changes.is_archived !== folder.is_archived) {
    updates.push({ is_archived: changes.is_archived });
  }
  if (updates.length === 0) return;
  await commit(app, (tx) => {
    const to = activeUserIds(app);
    for (const data of updates) {
      Object.assign(folder, data);
      tx.emit({ type: 'channel_folder', op: 'update', channel_folder_id: folder.id, data }, to);
    }
    tx.touch(app.store.channelFolders);
  });
}

/** PATCH /channel_folders: `order` lists every folder ID; positions become the new order. */
export async function doReorderChannelFolders(app: App, order: number[]): Promise<void> {
  await commit(app, (tx) => {
    order.forEach((id, index) => {
      const folder = app.store.channelFolders.data.folders.find((f) => f.id === id);
      if (folder) folder.order = index;
    });
    tx.touch(app.store.channelFolders);
    tx.emit({ type: 'channel_folder', op: 'reorder', order }, activeUserIds(app));
  });
}
