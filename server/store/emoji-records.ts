/** Custom emoji (`emoji.json`). */

/** A custom emoji (Zulip's RealmEmoji). Deactivated ones stay: old messages and reactions still show them. */
export interface RealmEmojiRecord {
  id: number;
  name: string;
  /** The image's file name under `<data dir>/emoji/`. */
  file: string;
  content_type: string;
  author_id: number | null;
  deactivated: boolean;
  created: number;
}

export interface RealmEmojiDoc {
  nextId: number;
  emoji: RealmEmojiRecord[];
}
