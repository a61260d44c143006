/**
 * Emoji data for clients (`server_emoji_data_url`): `{"code_to_names": ...}`
 * built from the bundled emoji tables, served with an ETag so clients re-use
 * their copy; and the organization's custom emoji (none: Hearth has no custom
 * emoji yet).
 */
import { createHash } from 'node:crypto';
import type { App, ApiRequest } from '../context.js';
import { codeToNames } from '../lib/emoji/unicode.js';

/** The serialised data, built once per server instance (it never changes while the server runs). */
function emojiData(app: App) {
  let data = app.staticFiles.emojiData;
  if (!data) {
    const body = JSON.stringify({ code_to_names: codeToNames() });
    app.staticFiles.emojiData = data = { body, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"` };
  }
  return data;
}

export function serveEmojiData(req: ApiRequest): void {
  const ctx = req.koa;
  const { body, etag } = emojiData(req.app);
  ctx.set('ETag', etag);
  ctx.set('Cache-Control', 'public, max-age=86400');
  if (ctx.get('If-None-Match') === etag) {
    ctx.status = 304;
    return;
  }
  ctx.type = 'application/json';
  ctx.body = body;
}
