import type { Collection } from './collection.js';

/** One uploaded file (Zulip's Attachment). */
export interface AttachmentRecord {
  id: number;
  /** `{realm_id}/{2 hex}/{24 random}/{safe name}`: the file's URL is `/user_uploads/{path_id}`. */
  path_id: string;
  /** The name shown to people (Content-Disposition, GET /attachments). */
  file_name: string;
  owner_id: number;
  /** Bytes. */
  size: number;
  content_type: string;
  /** Milliseconds since the epoch. */
  create_time: number;
  /** Where the bytes are, relative to `uploads/files/` in the data dir; never derived from a request. */
  storage: string;
  /** Messages that link the file (Zulip's Attachment.messages), ascending. */
  message_ids: number[];
  /**
   * An image Hearth thumbnails (Zulip's ImageAttachment), read from the file's header at upload;
   * null: read at upload and not such an image (or too large, or broken), so messages show a plain
   * link; absent: uploaded before Hearth made thumbnails (messages preview the original).
   */
  image?: ImageInfo | null;
}

/** What an uploaded image is, and the thumbnails made of it so far. */
export interface ImageInfo {
  /** Pixels as shown (after the EXIF orientation); one frame's for an animation. */
  width: number;
  height: number;
  /** 1 for a still image. */
  frames: number;
  /** The thumbnails on disk (`uploads/files/<storage>.thumbnails/<name>`), in the order made. */
  thumbnails: StoredThumbnail[];
}

/** One thumbnail made (Zulip's StoredThumbnailFormat). */
export interface StoredThumbnail {
  /** The format's name (`840x560.webp`), also its file name. */
  name: string;
  content_type: string;
  animated: boolean;
  width: number;
  height: number;
  byte_size: number;
}

export interface AttachmentsDoc {
  nextId: number;
  /** Signs temporary (unauthenticated, short-lived) file URLs; made when the collection is created. */
  secret: string;
  attachments: AttachmentRecord[];
}

export const isAttachmentsDoc = (d: AttachmentsDoc) =>
  Array.isArray(d.attachments) && Number.isInteger(d.nextId) && typeof d.secret === 'string' && d.secret.length >= 32;

/** The attachments collection with in-memory indexes by ID, path and linked message (rebuilt at load). */
export class AttachmentTable {
  private readonly byId = new Map<number, AttachmentRecord>();
  private readonly byPath = new Map<string, AttachmentRecord>();
  private readonly byMessage = new Map<number, Set<AttachmentRecord>>();

  constructor(readonly collection: Collection<AttachmentsDoc>) {
    for (const a of collection.data.attachments) this.index(a);
  }

  private index(a: AttachmentRecord): void {
    this.byId.set(a.id, a);
    this.byPath.set(a.path_id, a);
    for (const m of a.message_ids) this.linkIndex(a, m);
  }

  private linkIndex(a: AttachmentRecord, messageId: number): void {
    let set = this.byMessage.get(messageId);
    if (!set) this.byMessage.set(messageId, (set = new Set()));
    set.add(a);
  }

  get secret(): string {
    return this.collection.data.secret;
  }

  get(id: number): AttachmentRecord | undefined {
    return this.byId.get(id);
  }

  /** The exact stored path (no decoding or normalising here). */
  byPathId(pathId: string): AttachmentRecord | undefined {
    return this.byPath.get(pathId);
  }

  ownedBy(userId: number): AttachmentRecord[] {
    return this.collection.data.attachments.filter((a) => a.owner_id === userId);
  }

  linkedTo(messageId: number): AttachmentRecord[] {
    return [...(this.byMessage.get(messageId) ?? [])];
  }

  /** Bytes of every stored file (Zulip's currently_used_upload_space_bytes). */
  totalSize(): number {
    let n = 0;
    for (const a of this.collection.data.attachments) n += a.size;
    return n;
  }

  /** Adds a record in memory (assigning its id); the caller saves the collection. */
  add(fields: Omit<AttachmentRecord, 'id'>): AttachmentRecord {
    const doc = this.collection.data;
    const a: AttachmentRecord = { id: doc.nextId++, ...fields };
    doc.attachments.push(a);
    this.index(a);
    return a;
  }

  remove(a: AttachmentRecord): void {
    const doc = this.collection.data;
    doc.attachments = doc.attachments.filter((x) => x.id !== a.id);
    this.byId.delete(a.id);
    this.byPath.delete(a.path_id);
    for (const m of a.message_ids) this.byMessage.get(m)?.delete(a);
  }

  /** Records that message `messageId` links the file; false when it already did. */
  link(a: AttachmentRecord, messageId: number): boolean {
    if (a.message_ids.includes(messageId)) return false;
    a.message_ids.push(messageId);
    a.message_ids.sort((x, y) => x - y);
    this.linkIndex(a, messageId);
    return true;
  }

  unlink(a: AttachmentRecord, messageId: number): boolean {
    const i = a.message_ids.indexOf(messageId);
    if (i < 0) return false;
    a.message_ids.splice(i, 1);
    const set = this.byMessage.get(messageId);
    set?.delete(a);
    if (set?.size === 0) this.byMessage.delete(messageId);
    return true;
  }

  save(): Promise<void> {
    return this.collection.save();
  }
}
