/**
 * Adding and deactivating custom emoji (Zulip's check_add_realm_emoji and
 * do_remove_realm_emoji). The image is already in place under the data dir;
 * the record lands on disk before everyone hears of it.
 */
import type { App } from '../context.js';
import type { RealmEmojiChangeEvent } from '../events/types.js';
import { emojiForApi, realmEmojiDict } from '../lib/emoji/custom.js';
import type { RealmEmojiRecord, UserRecord } from '../store/records.js';
import { commit } from './commit.js';

const everyone = (app: App) => app.store.users.all().filter((u) => u.is_active).map((u) => u.id);

export async function doAddRealmEmoji(
  app: App,
  author: UserRecord,
  emoji: { name: string; file: string; content_type: string },
): Promise<RealmEmojiRecord> {
  return commit(app, (tx) => {
    const doc = app.store.emoji.data;
    const record: RealmEmojiRecord = {
      id: doc.nextId++,
      ...emoji,
      author_id: author.id,
      deactivated: false,
      created: Math.floor(app.clock.now() / 1000),
    };
    doc.emoji.push(record);
    tx.touch(app.store.emoji);
    const event: RealmEmojiChangeEvent = { type: 'realm_emoji', op: 'add', emoji: emojiForApi(app, record), all: realmEmojiDict(app) };
    tx.emit(event, everyone(app));
    return record;
  });
}

/** Deactivates (Zulip never deletes: messages and reactions keep showing the image). */
export async function doDeactivateRealmEmoji(app: App, emoji: RealmEmojiRecord): Promise<void> {
  await commit(app, (tx) => {
    emoji.deactivated = true;
    tx.touch(app.store.emoji);
    const all = realmEmojiDict(app);
    // Zulip's wire name, then the spec's name for the same change (see server/register/realm-emoji.ts).
    for (const op of ['update_one', 'edit'] as const) {
      const event: RealmEmojiChangeEvent = { type: 'realm_emoji', op, emoji_id: String(emoji.id), data: { deactivated: true }, all };
      tx.emit(event, everyone(app));
    }
  });
}
