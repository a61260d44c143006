/**
 * Message retention as Zulip's archiving decides it (zerver/lib/retention.py, archive_messages):
 * which messages a retention pass removes, and the dry-run count the organization settings show.
 *
 * - A channel's `message_retention_days`: null follows the organization's, -1 keeps forever, N days
 *   (Zulip's get_realms_and_streams_for_archiving, archive_stream_messages). Archived channels too.
 * - Direct messages (one-to-one and group) follow the organization's; -1 keeps them forever
 *   (move_expired_personal_and_huddle_messages_to_archive).
 * - A message expires when it was sent before now − N days (`date_sent < check_date`).
 * - A file goes with the last message that links it (Zulip's delete_expired_attachments).
 *
 * Message IDs ascend with send time (a message's timestamp is the moment it got its ID), so a
 * conversation's expired messages are the oldest part of its ID list: found by a binary search,
 * counted and taken without reading the rest of its history.
 */
import type { App } from '../../context.js';
import type { IdList } from '../../store/message-ids.js';
import type { MessageRecord } from '../../store/message-records.js';
import { realmMessageRetentionDays } from '../channels/settings.js';

export const DAY_SECONDS = 86_400;
/** Zulip's "unlimited": keep forever. */
export const FOREVER = -1;

/** Whose messages expire after how many days: a channel's, or (stream_id null) every direct message. */
export interface RetentionTarget {
  stream_id: number | null;
  days: number;
}

/** What-if values for a preview: the organization's period, or one channel's (null: the organization's). */
export interface RetentionOverride {
  realmDays?: number;
  channel?: { id: number; days: number | null };
}

/** A channel's period in force: its own, else the organization's (FOREVER: never expires). */
export const effectiveDays = (channelDays: number | null, realmDays: number): number => (channelDays === null ? realmDays : channelDays);

/** The policies in force (or as `what` would make them): every channel whose messages expire, then direct messages. */
export function retentionTargets(app: App, what: RetentionOverride = {}): RetentionTarget[] {
  const realmDays = what.realmDays ?? realmMessageRetentionDays(app);
  const out: RetentionTarget[] = [];
  for (const c of app.store.channels.data.channels) {
    const own = what.channel?.id === c.id ? what.channel.days : c.message_retention_days;
    const days = effectiveDays(own, realmDays);
    if (days !== FOREVER) out.push({ stream_id: c.id, days });
  }
  if (realmDays !== FOREVER) out.push({ stream_id: null, days: realmDays });
  return out;
}

/** The newest second a message may have been sent in and expire (`timestamp < cutoff`). */
export const cutoffFor = (app: App, days: number): number => Math.floor(app.clock.now() / 1000) - days * DAY_SECONDS;

/** The ID lists a target's messages are in: its channel's, or every direct conversation's. */
export function targetLists(app: App, target: RetentionTarget): Iterable<IdList> {
  const store = app.store.messages;
  return target.stream_id === null ? store.directConversations() : [store.channel(target.stream_id)];
}

/** How many of a list's oldest messages were sent before `cutoff` (a binary search: IDs ascend with time). */
export function expiredCount(app: App, list: IdList, cutoff: number): number {
  const store = app.store.messages;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const m = store.get(list.at(mid));
    if (!m || m.timestamp < cutoff) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The `limit` oldest expired messages across the targets, in ID order and within one segment file
 * (each one touched is written whole), where taking a conversation at a time would touch every
 * segment its history spans.
 */
/** Message IDs per segment file (server/store/messages.ts opens its collection with 1,000). */
const SEGMENT_SPAN = 1000;

export function expiredMessages(app: App, targets: RetentionTarget[], limit: number): MessageRecord[] {
  const store = app.store.messages;
  let ids: number[] = [];
  /** Once `limit` IDs are held, only lower ones can still make the batch. */
  let bound = Number.POSITIVE_INFINITY;
  const keepLowest = () => {
    ids.sort((a, b) => a - b);
    if (ids.length > limit) ids = ids.slice(0, limit);
    if (ids.length === limit) bound = ids[limit - 1]!;
  };
  for (const t of targets) {
    const cutoff = cutoffFor(app, t.days);
    for (const list of targetLists(app, t)) {
      if (!list.length || list.at(0) >= bound) continue;
      const n = Math.min(expiredCount(app, list, cutoff), limit);
      for (let i = 0; i < n; i++) {
        const id = list.at(i);
        if (id >= bound) break;
        ids.push(id);
      }
      if (ids.length >= 2 * limit) keepLowest();
    }
  }
  keepLowest();
  // One segment file a batch: each batch is then one file's write (the store writes a changed
  // segment whole), never a set of files serialised in one turn of the loop.
  const segmentEnd = ids.length ? ids[0]! - ((ids[0]! - 1) % SEGMENT_SPAN) + SEGMENT_SPAN : 0;
  const out: MessageRecord[] = [];
  for (const id of ids) {
    if (id >= segmentEnd) break;
    const m = store.get(id);
    if (m) out.push(m);
  }
  return out;
}

export interface RetentionPreview {
  /** Messages that would be deleted, direct messages included. */
  messages: number;
  direct_messages: number;
  /** Uploaded files that only those messages link. */
  attachments: number;
}

/** The dry run: what a pass would delete under these targets now. */
export function retentionPreview(app: App, targets: RetentionTarget[]): RetentionPreview {
  const cutoffs = new Map<number | null, number>();
  let messages = 0;
  let direct = 0;
  for (const t of targets) {
    const cutoff = cutoffFor(app, t.days);
    cutoffs.set(t.stream_id, cutoff);
    for (const list of targetLists(app, t)) {
      const n = expiredCount(app, list, cutoff);
      messages += n;
      if (t.stream_id === null) direct += n;
    }
  }
  const store = app.store.messages;
  const expires = (id: number) => {
    const m = store.get(id);
    const cutoff = m && cutoffs.get(m.stream_id);
    return cutoff !== undefined && m !== undefined && m.timestamp < cutoff;
  };
  let attachments = 0;
  for (const a of app.store.attachments.collection.data.attachments) {
    if (a.message_ids.length && a.message_ids.every(expires)) attachments++;
  }
  return { messages, direct_messages: direct, attachments };
}
