/**
 * Zulip's inline image previews of uploaded files (zerver/lib/markdown add_a and
 * zerver/lib/thumbnail rewrite_thumbnailed_images), byte for byte:
 *
 *   <div class="message_inline_image"><a href="/user_uploads/P" title="TEXT">IMG</a></div>
 *
 * where IMG is, for an image whose thumbnail is not made yet, the loading placeholder
 *   <img class="image-loading-placeholder" data-original-content-type="image/png"
 *        data-original-dimensions="128x128" src="/static/images/loading/loader-black.svg">
 * and once it is made (attributes in Zulip's alphabetical order)
 *   <img [data-animated="true"] data-original-content-type="image/png"
 *        data-original-dimensions="128x128" src="/user_uploads/thumbnail/P/840x560.webp">
 * An upload from before thumbnails previews the original (`<img src="/user_uploads/P">`).
 */
import { escapeHtml } from '../protocol/html.js';
import type { UploadPreview } from './types.js';

/** The placeholder's image (Zulip's path; Hearth serves a spinner of its own there). */
export const LOADER_SRC = '/static/images/loading/loader-black.svg';

/** The `<img>` of a preview; `href` is the upload's link, already escaped. */
export function previewImgHtml(p: Exclude<UploadPreview, { kind: 'none' }>, href: string): string {
  if (p.kind === 'original') return `<img src="${href}">`;
  const data =
    ` data-original-content-type="${escapeHtml(p.contentType)}"` + ` data-original-dimensions="${p.width}x${p.height}"`;
  if (p.thumbnailUrl === null) return `<img class="image-loading-placeholder"${data} src="${LOADER_SRC}">`;
  return `<img${p.animated ? ' data-animated="true"' : ''}${data} src="${escapeHtml(p.thumbnailUrl)}">`;
}

/** One preview block. */
export function previewHtml(p: Exclude<UploadPreview, { kind: 'none' }>, href: string, title: string | null): string {
  const t = title ? ` title="${escapeHtml(title)}"` : '';
  return `<div class="message_inline_image"><a href="${href}"${t}>${previewImgHtml(p, href)}</a></div>`;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
/** The few entities the renderer writes, back to characters. */
export const unescapeHtml = (s: string) => (s.includes('&') ? s.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!) : s);

/** A link's text as its preview's title (Zulip: the link's text), from the link's inner HTML. */
export function linkTitle(innerHtml: string): string | null {
  const text = unescapeHtml(innerHtml.replace(/<[^>]*>/g, '')).trim();
  return text === '' ? null : text;
}

// A placeholder preview as the renderer writes it (sanitised: attribute values escaped, no `>` inside).
const PLACEHOLDER_BLOCK =
  /<div class="message_inline_image"><a href="([^"]*)"((?: title="[^"]*")?)><img class="image-loading-placeholder"[^>]*><\/a><\/div>/g;

/**
 * Stored message HTML with the placeholders of one upload rewritten (Zulip's
 * rewrite_thumbnailed_images): `preview` puts its thumbnail in; null (the image failed to
 * decode) takes the whole preview out, leaving the plain link. `isUpload` says whether a
 * placeholder's link (unescaped) is that upload. Undefined when nothing changed.
 */
export function rewriteThumbnailedImages(
  html: string,
  isUpload: (href: string) => boolean,
  preview: Exclude<UploadPreview, { kind: 'none' }> | null,
): string | undefined {
  if (!html.includes('image-loading-placeholder')) return undefined;
  let changed = false;
  const out = html.replace(PLACEHOLDER_BLOCK, (whole, href: string, title: string) => {
    if (!isUpload(unescapeHtml(href))) return whole;
    changed = true;
    if (preview === null) return '';
    return `<div class="message_inline_image"><a href="${href}"${title}>${previewImgHtml(preview, href)}</a></div>`;
  });
  // As Zulip's rewrite strips the result (a preview taken out at the end leaves no trailing newline).
  return changed ? out.trim() : undefined;
}
