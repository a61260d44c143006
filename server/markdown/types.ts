/**
 * The contract between the Markdown renderer (server/markdown/) and its callers
 * (messages, profile fields, channel and folder descriptions). The renderer
 * never reads the store: the caller passes lookups in.
 */
export interface RenderUser {
  id: number;
  full_name: string;
  /** False for a deactivated user (mentioned silently, as in Zulip); absent means active. */
  is_active?: boolean;
}

export interface RenderContext {
  /**
   * Users whose full name matches (case-insensitive); several when names
   * clash. Deactivated users may be included with `is_active: false`.
   */
  usersByName(name: string): RenderUser[];
  userById(id: number): RenderUser | undefined;
  /** A user group by name (case-insensitive); a deactivated one is mentioned silently. */
  groupByName(name: string): { id: number; name: string; deactivated?: boolean } | undefined;
  /** A channel the author can see, by name (case-insensitive). */
  channelByName(name: string): { id: number; name: string } | undefined;
  /**
   * The first message of a topic the author can read (Zulip's `/with/<id>` operand of topic links,
   * which keeps a link working after the topic is moved or renamed); undefined when none.
   */
  topicWith?(channelId: number, topic: string): number | undefined;
  /** A realm emoji by name, when custom emoji exist. */
  realmEmoji?(name: string): { id: string; name: string; source_url: string } | undefined;
  /**
   * The organization's linkifiers applied to a run of plain text: its pieces
   * (links carry a safe `url`), or null when nothing matches. Absent: none.
   */
  linkify?(text: string): { text: string; url?: string }[] | null;
}

export interface RenderResult {
  /** Sanitised HTML, safe to put in the page. */
  html: string;
  /** Users mentioned by a non-silent mention. */
  mentionedUserIds: Set<number>;
  /** Groups mentioned by a non-silent mention. */
  mentionedGroupIds: Set<number>;
  /** `@**all**`, `@**everyone**`, `@**channel**`, `@**stream**` (non-silent). */
  channelWildcard: boolean;
  /** `@**topic**` (non-silent). */
  topicWildcard: boolean;
  /** The message starts with `/me `. */
  isMeMessage: boolean;
  /** Paths `/user_uploads/...` the content links to (for attachment access). */
  uploadPaths: string[];
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
}
