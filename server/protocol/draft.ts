/** A draft as the server keeps it (`/drafts`, `drafts` events): a channel topic, a direct conversation, or unaddressed. */
export interface Draft {
  id: number;
  type: 'stream' | 'private' | '';
  /** The channel ID (one), or the recipients' user IDs. */
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}
