/** Everyone's drafts (`drafts.json`). */

export type DraftType = '' | 'stream' | 'private';

export interface DraftRecord {
  id: number;
  user_id: number;
  type: DraftType;
  to: number[];
  topic: string;
  content: string;
  /** Unix seconds of the last edit. */
  timestamp: number;
}

export interface DraftsDoc {
  nextId: number;
  drafts: DraftRecord[];
}
