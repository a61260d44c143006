/**
 * Image thumbnails, as Zulip 9+ makes them (zerver/lib/thumbnail.py): the formats Hearth announces
 * in `server_thumbnail_formats`, reading an upload's header at upload time (its size as shown, its
 * frame count), making the thumbnails with sharp (libvips) and where they are kept on disk.
 *
 * Safety: only JPEG, PNG, GIF, WebP and AVIF are ever decoded (by the bytes' own format, whatever
 * type the client claimed); an image over 90 megapixels (Zulip's IMAGE_BOMB_TOTAL_PIXELS), or an
 * animation whose first three frames are over a third of that, is refused from its header before
 * any pixel is decoded; decoding itself is bounded by the same pixel limit and a time limit. A file
 * that fails gets no thumbnail and its messages keep a plain link.
 *
 * The work runs on libvips' threads (sharp is asynchronous), one upload at a time through the
 * app's ThumbnailQueue (./thumbnail-queue.ts), never on the request that uploaded the file.
 */
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import type { AttachmentRecord, ImageInfo, StoredThumbnail } from '../../store/attachment-records.js';

/** Zulip's IMAGE_BOMB_TOTAL_PIXELS: about a quarter of a gigabyte at 3 bytes a pixel. */
export const IMAGE_MAX_PIXELS = 90_000_000;
/** Zulip's IMAGE_MAX_ANIMATED_PIXELS: the frames of an animated thumbnail share a third of that. */
export const IMAGE_MAX_ANIMATED_PIXELS = IMAGE_MAX_PIXELS / 3;
/** One image's decoding and encoding may take this long before it counts as failed. */
const TIMEOUT_SECONDS = 30;

export interface ThumbnailFormat {
  /** The last path component of its URL: `840x560.webp`, `840x560-anim.webp` (Zulip's str(format)). */
  name: string;
  max_width: number;
  max_height: number;
  format: 'webp';
  animated: boolean;
}

const format = (max_width: number, max_height: number, animated: boolean): ThumbnailFormat => ({
  name: `${max_width}x${max_height}${animated ? '-anim' : ''}.webp`,
  max_width,
  max_height,
  format: 'webp',
  animated,
});

/**
 * Zulip's default THUMBNAIL_OUTPUT_FORMATS, in its order: the first animated and the first still
 * one are what message HTML links. 840x560 is large enough that a client that does not know the
 * protocol (an older mobile app) shows no pixelation, and far smaller than a phone photo.
 */
export const THUMBNAIL_FORMATS: readonly ThumbnailFormat[] = [format(840, 560, true), format(840, 560, false)];

/** `server_thumbnail_formats` in POST /register. */
export const serverThumbnailFormats = () => THUMBNAIL_FORMATS.map((f) => ({ ...f }));

/** A format named in a thumbnail URL (Zulip's BaseThumbnailFormat.from_string); null when it is not one. */
export function parseFormatName(name: string): { max_width: number; max_height: number; animated: boolean; extension: string } | null {
  const m = /^(\d{1,5})x(\d{1,5})(-anim)?\.(\w{1,10})$/.exec(name);
  return m ? { max_width: Number(m[1]), max_height: Number(m[2]), animated: m[3] !== undefined, extension: m[4]! } : null;
}

/** Types worth reading as images (Zulip's THUMBNAIL_ACCEPT_IMAGE_TYPES, without TIFF, HEIC and SVG). */
const ACCEPTED_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif', 'image/apng']);
/** What libvips may decode, by the bytes' own format (sharp's metadata().format). */
const DECODED_FORMATS: ReadonlySet<string> = new Set(['jpeg', 'png', 'gif', 'webp', 'heif']);

export const isThumbnailType = (contentType: string) => ACCEPTED_TYPES.has(contentType);

/** The formats made for an image (Zulip's missing_thumbnails): animated ones only for animations. */
export const formatsFor = (image: ImageInfo) => THUMBNAIL_FORMATS.filter((f) => !f.animated || image.frames > 1);

/** Whether every format this image gets is made. */
export const thumbnailsDone = (image: ImageInfo) => formatsFor(image).every((f) => image.thumbnails.some((t) => t.name === f.name));

/**
 * The format message HTML links (Zulip's get_default_thumbnail_url): the first of the formats that
 * is animated exactly when the image is.
 */
export function defaultFormat(image: ImageInfo): ThumbnailFormat {
  return THUMBNAIL_FORMATS.find((f) => f.animated === image.frames > 1) ?? THUMBNAIL_FORMATS[0]!;
}

/** `/user_uploads/thumbnail/{path}/{format}`: the file's own URL with the format appended. */
export function thumbnailUrl(fileUrl: string, formatName: string): string {
  return `${fileUrl.replace(/^\/user_uploads\//, '/user_uploads/thumbnail/')}/${formatName}`;
}

/** Where an upload's thumbnails are: a folder beside its bytes (`uploads/files/<xx>/<random>.thumbnails/`). */
export const thumbnailDir = (filesDir: string, a: Pick<AttachmentRecord, 'storage'>) => join(filesDir, `${a.storage}.thumbnails`);
/** One thumbnail's file; `name` is always one of THUMBNAIL_FORMATS' names, never a request's text. */
export const thumbnailPath = (filesDir: string, a: Pick<AttachmentRecord, 'storage'>, name: string) => join(thumbnailDir(filesDir, a), name);

/** Restricts libvips to the decoders above for this process (Zulip's operation_block_set; sharp.block). */
export function restrictDecoders(): void {
  sharp.block({ operation: ['VipsForeignLoad'] });
  sharp.unblock({
    operation: ['VipsForeignLoadJpeg', 'VipsForeignLoadPng', 'VipsForeignLoadNsgif', 'VipsForeignLoadWebp', 'VipsForeignLoadHeif'],
  });
  // One thumbnailing at a time needs no cache of decoded images and few threads.
  sharp.cache(false);
}

/**
 * The image an uploaded file holds, read from its header only (Zulip's maybe_thumbnail): its size
 * as shown (after its EXIF orientation) and frame count; null when it is not an image Hearth
 * thumbnails, cannot be read, or is too large to decode safely (an image bomb).
 */
export async function probeImage(path: string, contentType: string): Promise<ImageInfo | null> {
  if (!isThumbnailType(contentType)) return null;
  try {
    const meta = await sharp(path, { limitInputPixels: false, failOn: 'none' }).metadata();
    if (!meta.format || !DECODED_FORMATS.has(meta.format)) return null;
    if (meta.format === 'heif' && meta.compression !== 'av1') return null;
    const frames = Math.max(1, meta.pages ?? 1);
    const width = meta.width;
    const height = frames > 1 ? (meta.pageHeight ?? meta.height) : meta.height;
    if (!width || !height) return null;
    if (frames === 1 ? width * height > IMAGE_MAX_PIXELS : width * height * Math.min(3, frames) > IMAGE_MAX_ANIMATED_PIXELS) return null;
    const turned = (meta.orientation ?? 1) >= 5 && (meta.orientation ?? 1) <= 8;
    return { width: turned ? height : width, height: turned ? width : height, frames, thumbnails: [] };
  } catch {
    return null;
  }
}

/** A thumbnail made in memory, to be written beside the upload. */
export interface MadeThumbnail extends StoredThumbnail {
  data: Buffer;
}

/**
 * Makes one format of an image (Zulip's ensure_thumbnails for one format): scaled down only, to fit
 * within the format's box; EXIF orientation applied; no metadata kept (sharp writes none unless
 * asked). An animated format of an animation keeps as many frames as fit in
 * IMAGE_MAX_ANIMATED_PIXELS; a still format of an animation is its first frame. Throws when the
 * image cannot be decoded.
 */
export async function makeThumbnail(source: string | Buffer, image: ImageInfo, f: ThumbnailFormat): Promise<MadeThumbnail> {
  let pages = 1;
  if (image.frames > 1 && f.animated) {
    const perFrame = image.width * image.height;
    pages = perFrame * image.frames < IMAGE_MAX_ANIMATED_PIXELS ? -1 : Math.max(1, Math.floor(IMAGE_MAX_ANIMATED_PIXELS / perFrame));
  }
  let pipeline = sharp(source, { limitInputPixels: IMAGE_MAX_PIXELS, failOn: 'error', pages, sequentialRead: true });
  if (image.frames === 1) pipeline = pipeline.rotate();
  const { data, info } = await pipeline
    .resize(f.max_width, f.max_height, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 80, effort: 4 })
    .timeout({ seconds: TIMEOUT_SECONDS })
    .toBuffer({ resolveWithObject: true });
  const animated = f.animated && image.frames > 1;
  return {
    name: f.name,
    content_type: 'image/webp',
    animated: f.animated,
    width: info.width,
    height: animated ? (info.pageHeight ?? info.height) : info.height,
    byte_size: data.length,
    data,
  };
}

/** Writes a thumbnail durably (temp file, fsync, rename, folder fsync), mode 0600 in a 0700 folder. */
export async function writeThumbnail(path: string, data: Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.tmp`;
  const h = await open(tmp, 'w', 0o600);
  try {
    await h.writeFile(data);
    await h.sync();
  } finally {
    await h.close();
  }
  await rename(tmp, path);
  const d = await open(dirname(path), 'r').catch(() => null);
  if (d) {
    await d.sync().catch(() => undefined);
    await d.close();
  }
}

/** Deletes an upload's thumbnails (with the upload, or after a failure). */
export const removeThumbnails = (filesDir: string, a: Pick<AttachmentRecord, 'storage'>) =>
  rm(thumbnailDir(filesDir, a), { recursive: true, force: true });
