/**
 * The realm area's events as the server's actions emit them, where they differ from the wire
 * forms (server/protocol/events/realm.ts): a custom emoji change, with the whole map after it for
 * legacy queues (server/register/realm-emoji.ts).
 */
import type { RealmEmoji } from '../../protocol/realm-emoji.js';

export type RealmEmojiChangeEvent =
  | { type: 'realm_emoji'; op: 'add'; emoji: RealmEmoji; all: Record<string, RealmEmoji> }
  | { type: 'realm_emoji'; op: 'update_one' | 'edit'; emoji_id: string; data: { deactivated: boolean }; all: Record<string, RealmEmoji> };
