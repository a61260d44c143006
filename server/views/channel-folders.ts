import { doCreateChannelFolder, doReorderChannelFolders, doUpdateChannelFolder } from '../actions/channel-folders.js';
import type { App, ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t, type ParamType } from '../params/params.js';
import { v } from '../params/validate.js';
import { foldersInOrder, formatFolder } from '../lib/channels/format.js';
import { unprintablePosition } from '../lib/channels/validate.js';
import type { ChannelFolderRecord } from '../store/channel-records.js';
import { LIMITS } from '../version.js';
import { pathInt } from './common.js';
import { requireAdmin } from '../lib/people/require.js';
import { requireUser } from '../lib/people/require.js';

const limited = (max: number): ParamType<string> => ({
  read(raw, name) {
    if ([...raw].length > max) throw errors.badRequest(`${name} is too long (limit: ${max} characters)`);
    return raw;
  },
});
const folderName = limited(LIMITS.max_channel_folder_name_length);
const folderDescription = limited(LIMITS.max_channel_folder_description_length);

/** Zulip's check_channel_folder_name: not blank, printable, unique case-insensitively. */
function checkFolderName(app: App, raw: string, self?: ChannelFolderRecord): string {
  const name = raw.trim();
  if (name === '') throw errors.badRequest("Channel folder name can't be empty.");
  const pos = unprintablePosition(name);
  if (pos !== null) throw errors.badRequest(`Invalid character in channel folder name, at position ${pos}.`);
  const taken = app.store.channelFolders.data.folders.some(
    (f) => f !== self && f.name.toLowerCase() === name.toLowerCase(),
  );
  if (taken) throw errors.badRequest(`Channel folder '${name}' already exists`);
  return name;
}

/** GET /channel_folders: in display order; archived ones only with include_archived. */
export function listChannelFolders(req: ApiRequest): ViewResult {
  requireUser(req);
  const includeArchived = req.params.get('include_archived', t.bool, false);
  return { channel_folders: foldersInOrder(req.app, includeArchived).map(formatFolder) };
}

/** POST /channel_folders/create: administrators. */
export async function createChannelFolder(req: ApiRequest): Promise<ViewResult> {
  const user = requireAdmin(req);
  const name = checkFolderName(req.app, req.params.require('name', folderName));
  const description = req.params.require('description', folderDescription);
  const folder = await doCreateChannelFolder(req.app, user.id, name, description);
  return { channel_folder_id: folder.id };
}

/** PATCH /channel_folders/{channel_folder_id}: name, description, is_archived. */
export async function updateChannelFolder(req: ApiRequest): Promise<ViewResult> {
  const user = requireAdmin(req);
  const { app } = req;
  const name = req.params.get('name', folderName);
  const description = req.params.get('description', folderDescription);
  const isArchived = req.params.get('is_archived', t.bool);
  const id = pathInt(req, 'channel_folder_id');
  const folder = app.store.channelFolders.data.folders.find((f) => f.id === id);
  if (!folder) throw errors.badRequest('Invalid channel folder ID');
  const newName = name !== undefined && name.trim() !== folder.name ? checkFolderName(app, name, folder) : undefined;
  if (isArchived === true && !folder.is_archived) {
    const inUse = app.store.channels.data.channels.some((c) => c.folder_id === folder.id && !c.is_archived);
    if (inUse) throw errors.badRequest('You need to remove all the channels from this folder to archive it.');
  }
  await doUpdateChannelFolder(app, folder, { name: newName, description, is_archived: isArchived }, user.id);
  return {};
}

/** PATCH /channel_folders: `order` must list every folder's ID once. */
export async function reorderChannelFolders(req: ApiRequest): Promise<ViewResult> {
  requireAdmin(req);
  const order = req.params.require('order', t.json(v.list(v.int)));
  const ids = req.app.store.channelFolders.data.folders.map((f) => f.id);
  const valid = order.length === ids.length && new Set(order).size === order.length && ids.every((id) => order.includes(id));
  if (!valid) throw errors.badRequest('Invalid order mapping.');
  await doReorderChannelFolders(req.app, order);
  return {};
}
