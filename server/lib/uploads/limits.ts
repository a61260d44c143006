/**
 * What one upload may be: the per-file limit (`max_file_upload_size_mib`), the organization's
 * upload quota (`hearth_upload_quota_mib`, clients see Zulip's `realm_upload_quota_mib`), a
 * guest's daily allowance (`hearth_guest_upload_mib_per_day`, else the server's) and the free
 * space the data dir's disk keeps. Views check before storing; the quota and the guest
 * allowance are checked again in the commit that records the file, so uploads finishing
 * together cannot both slip under them.
 */
import { statfs } from 'node:fs/promises';
import type { App } from '../../context.js';
import { HearthError } from '../../errors.js';
import type { UserRecord } from '../../store/records.js';
import { isGuest } from '../people/people.js';

const MiB = 1024 * 1024;
const DAY_MS = 86_400_000;

/** The organization's upload limit in MiB (`max_file_upload_size_mib`, Zulip's default 25). */
export const maxUploadMib = (app: App) => app.store.realm.data.realm!.settings.max_file_upload_size_mib;

export const maxUploadBytes = (app: App) => maxUploadMib(app) * MiB;

/** Zulip's message for a self-hosted server's limit. */
export const tooLargeMessage = (app: App) =>
  `File is larger than this server's configured maximum upload size (${maxUploadMib(app)} MiB).`;

/**
 * The quota when an owner has set none: 10 GiB of uploaded files for the whole organization,
 * years of a small office's screenshots and documents, yet a stop to one account filling the
 * server computer's disk (25 MiB files at the API rate limit are about 5 GB a minute).
 */
export const DEFAULT_UPLOAD_QUOTA_MIB = 10_240;

/** Largest quota an owner may set (1 PiB): beyond it the byte count leaves exact integers' range. */
export const MAX_UPLOAD_QUOTA_MIB = 1_073_741_824;

/** The organization's upload quota in MiB, null for none (`hearth_upload_quota_mib`). */
export function uploadQuotaMib(app: App): number | null {
  const v = app.store.realm.data.realm?.settings.hearth_upload_quota_mib;
  return v === undefined ? DEFAULT_UPLOAD_QUOTA_MIB : v;
}

/** MiB a guest may upload in any 24 hours: the owners' setting, else the server's default. */
export function guestUploadMibPerDay(app: App): number {
  return app.store.realm.data.realm?.settings.hearth_guest_upload_mib_per_day ?? app.config.guestUploadMibPerDay;
}

/** Zulip's RealmUploadQuotaError. */
export const quotaExceeded = () =>
  new HearthError("Upload would exceed your organization's upload quota.", { code: 'REALM_UPLOAD_QUOTA' });

/**
 * Bytes `user` uploaded in the last 24 hours: files still stored, and those deleted since (deleting
 * and uploading again made the daily allowance an allowance at any one time).
 */
function uploadedToday(app: App, userId: number): number {
  const since = app.clock.now() - DAY_MS;
  let n = 0;
  for (const a of app.store.attachments.ownedBy(userId)) if (a.create_time > since) n += a.size;
  for (const d of app.deletedGuestUploads) if (d.userId === userId && d.at > since) n += d.size;
  return n;
}

/** Notes a deleted upload that still counts against its guest owner's allowance today. */
export function noteDeletedUpload(app: App, owner: UserRecord | undefined, a: { create_time: number; size: number }): void {
  const since = app.clock.now() - DAY_MS;
  app.deletedGuestUploads = app.deletedGuestUploads.filter((d) => d.at > since);
  if (owner && isGuest(owner) && a.create_time > since) app.deletedGuestUploads.push({ userId: owner.id, at: a.create_time, size: a.size });
}

/**
 * Declared lengths of resumable uploads begun and not finished: everyone's, and the uploader's.
 * They count against the quota and a guest's allowance at the start of another upload (they
 * were counted only once finished, so unfinished ones, kept a week, filled the disk past both).
 */
export interface UnfinishedBytes {
  all: number;
  mine: number;
}

const NONE_UNFINISHED: UnfinishedBytes = { all: 0, mine: 0 };

/**
 * Throws the error a new upload of `size` bytes by `user` gets when it would go over the
 * organization's quota (Zulip's check_upload_within_quota: stored files, avatars and emoji
 * not counted) or, for a guest, over the daily allowance. Synchronous: actions call it inside
 * the commit that records the file.
 */
export function checkUploadAllowed(app: App, user: UserRecord, size: number, unfinished: UnfinishedBytes = NONE_UNFINISHED): void {
  const quota = uploadQuotaMib(app);
  if (quota !== null && app.store.attachments.totalSize() + unfinished.all + size > quota * MiB) throw quotaExceeded();
  if (isGuest(user)) {
    const limit = guestUploadMibPerDay(app);
    if (uploadedToday(app, user.id) + unfinished.mine + size > limit * MiB) {
      throw new HearthError(`Guests may upload at most ${limit} MiB in 24 hours. Try again later, or ask an organization owner.`, {
        code: 'BAD_REQUEST',
      });
    }
  }
}

/**
 * Throws when storing `pending` more bytes (not yet on disk: a resumable upload's declared
 * length; 0 for a file already spooled) would leave the data dir's disk with less free space than
 * the server keeps (`uploadDiskReserveMib`): a full disk would refuse every message too.
 */
export async function checkDiskSpace(app: App, pending: number): Promise<void> {
  const reserve = app.config.uploadDiskReserveMib * MiB;
  if (reserve <= 0) return;
  const fs = await statfs(app.config.dataDir).catch(() => null);
  if (!fs) return;
  if (fs.bavail * fs.bsize - pending < reserve) {
    throw new HearthError("Upload refused: the server's disk is nearly full. Tell an organization owner.", { code: 'REALM_UPLOAD_QUOTA' });
  }
}
