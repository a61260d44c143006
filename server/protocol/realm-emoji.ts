/** A custom emoji as the API shows it (register's `realm_emoji`, `realm_emoji` events). */
export interface RealmEmoji {
  id: string;
  name: string;
  source_url: string;
  still_url: string | null;
  deactivated: boolean;
  author_id: number | null;
}
