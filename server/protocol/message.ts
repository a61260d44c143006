/**
 * A message as clients get it (`GET /messages`, the `message` event): Zulip's message dict.
 * `flags` come with a fetch; a `message` event carries them beside the message (the client puts
 * them on).
 */

export interface Reaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  user_id: number;
}

/** A widget's submessage (a poll or to-do list, then its votes, options and ticks), as Zulip sends it. */
export interface Submessage {
  id: number;
  message_id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

/** A direct message's recipient in `display_recipient`. */
export interface DisplayRecipientUser {
  id: number;
  email: string;
  full_name: string;
  is_mirror_dummy?: boolean;
}

export interface Message {
  id: number;
  sender_id: number;
  /** HTML with `apply_markdown` (the web client's way), else Markdown. */
  content: string;
  content_type?: string;
  recipient_id?: number;
  timestamp: number;
  client?: string;
  type: 'stream' | 'private';
  /** Only for channel messages. */
  stream_id?: number;
  subject: string;
  topic_links?: { text: string; url: string }[];
  is_me_message?: boolean;
  reactions: Reaction[];
  /** Zulip's submessages: a poll or to-do list and its events, kept through edits and moves. */
  submessages?: Submessage[];
  sender_full_name: string;
  sender_email?: string;
  sender_realm_str?: string;
  /** The channel's name, or the direct message's recipients. */
  display_recipient: string | DisplayRecipientUser[];
  avatar_url: string | null;
  last_edit_timestamp?: number;
  last_moved_timestamp?: number;
  flags: string[];
  /** Search results: the content and topic with the matched words marked. */
  match_content?: string;
  match_subject?: string;
}
