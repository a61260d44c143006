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
  /**
   * The organization's `default_code_block_language`: the language of a fenced code block that names
   * none (not inside a spoiler, as in Zulip). Absent or empty: none.
   */
  defaultCodeBlockLanguage?: string;
  /** A realm emoji by name, when custom emoji exist. */
  realmEmoji?(name: string): { id: string; name: string; source_url: string } | undefined;
  /**
   * The organization's linkifiers applied to a run of plain text: its pieces
   * (links carry a safe `url`), or null when nothing matches. Absent: none.
   */
  linkify?(text: string): { text: string; url?: string }[] | null;
  /**
   * How a link to an uploaded file (`/user_uploads/...`, as written) is previewed: an image with
   * its thumbnail (or a placeholder until it is made), the original (uploaded before thumbnails),
   * or not at all. Absent: files named like images preview the original.
   */
  uploadPreview?(href: string): UploadPreview;
}

/** An uploaded file's inline preview (server/markdown/image-preview.ts writes its markup). */
export type UploadPreview =
  | { kind: 'none' }
  | { kind: 'original' }
  | {
      kind: 'image';
      /** Pixels as shown, and the type as uploaded (`data-original-dimensions`, `data-original-content-type`). */
      width: number;
      height: number;
      contentType: string;
      /** The thumbnail linked is animated (`data-animated`). */
      animated: boolean;
      /** The thumbnail's URL; null while it is not made (the loading placeholder). */
      thumbnailUrl: string | null;
    };

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
