/**
 * How a message previews a link to an uploaded file (Zulip's get_user_upload_previews): an image
 * read at upload gets its thumbnail, or Zulip's loading placeholder until the thumbnail is made; a
 * file uploaded before Hearth made thumbnails previews the original when it is an image; anything
 * else (not an image, one that failed to decode or was too large, an unknown file) has no preview.
 */
import type { App } from '../../context.js';
import type { UploadPreview } from '../../markdown/types.js';
import type { AttachmentRecord, ImageInfo } from '../../store/attachment-records.js';
import { isInlineType, pathIdFromReference, uploadUrl } from './names.js';
import { defaultFormat, thumbnailUrl } from './thumbnails.js';

const NONE: UploadPreview = { kind: 'none' };

/** The preview of an image read at upload, thumbnail made or not. */
export function imagePreview(a: AttachmentRecord, image: ImageInfo): Exclude<UploadPreview, { kind: 'none' | 'original' }> {
  const f = defaultFormat(image);
  const made = image.thumbnails.some((t) => t.name === f.name);
  return {
    kind: 'image',
    width: image.width,
    height: image.height,
    contentType: a.content_type,
    animated: f.animated,
    thumbnailUrl: made ? thumbnailUrl(uploadUrl(a.path_id), f.name) : null,
  };
}

export function uploadPreview(app: App, href: string): UploadPreview {
  const pathId = pathIdFromReference(href);
  const a = pathId === null ? undefined : app.store.attachments.byPathId(pathId);
  if (!a) return NONE;
  if (a.image === undefined) return a.content_type.startsWith('image/') && isInlineType(a.content_type) ? { kind: 'original' } : NONE;
  return a.image === null ? NONE : imagePreview(a, a.image);
}
