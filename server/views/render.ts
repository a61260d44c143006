/**
 * `POST /api/v1/messages/render`: the HTML a message with this content would
 * get (Zulip's render_message_backend), rendered with what the requester can
 * see. Nothing is stored and no mention notifies anyone.
 */
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { renderContextFor } from '../lib/messages/render-context.js';
import { renderMessage } from '../markdown/index.js';
import { LIMITS } from '../version.js';
import { requireUser } from '../lib/people/require.js';

export function renderMessageView(req: ApiRequest): ViewResult {
  const user = requireUser(req);
  const raw = req.params.require('content', t.string);
  if (raw.includes('\u0000')) throw errors.badRequest('Message must not contain null bytes');
  const chars = [...raw.trimEnd()];
  const content = chars.length > LIMITS.max_message_length ? chars.slice(0, LIMITS.max_message_length).join('') : chars.join('');
  return { rendered: renderMessage(content, renderContextFor(req.app, user.id)).html };
}
