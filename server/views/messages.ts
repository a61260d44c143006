/** Reading messages: GET /messages, /messages/{id}, /messages/{id}/history, /messages/matches_narrow. */
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t, type ParamType } from '../params/params.js';
import { v } from '../params/validate.js';
import { canReadMessage } from '../lib/messages/access.js';
import {
  LARGER_THAN_MAX_MESSAGE_ID,
  MAX_MESSAGES_PER_FETCH,
  fetchByIds,
  fetchRange,
  prepareNarrow,
  withMatches,
} from '../lib/messages/fetch.js';
import { formatForViewer, type FormatOptions } from '../lib/messages/format.js';
import { messageHistory } from '../lib/messages/history.js';
import { highlighterFor } from '../lib/messages/search.js';
import { checkSpectatorNarrow } from '../lib/messages/narrow.js';
import { parseNarrow, type NarrowTerm } from '../lib/messages/narrow-terms.js';
import { webPublicChannelsEnabled } from '../lib/channels/settings.js';
import type { MessageRecord } from '../store/message-records.js';
import type { UserRecord } from '../store/records.js';
import { pathInt } from './common.js';
import { requireUser } from '../lib/people/require.js';

export const narrowParam: ParamType<NarrowTerm[]> = { read: (raw, name) => parseNarrow(raw, name) };

export const nonNegative: ParamType<number> = {
  read(raw, name) {
    const n = t.int.read(raw, name);
    if (n < 0) throw errors.badRequest(`${name} is too small`);
    return n;
  },
};

/** Zulip's parse_anchor_value: null means the first unread message. */
export function anchorParam(req: ApiRequest): number | null {
  const { params } = req;
  const raw = params.get('anchor', t.string);
  if (params.get('use_first_unread_anchor', t.bool, false)) return null;
  if (raw === undefined) throw errors.badRequest("Missing 'anchor' argument.");
  const s = raw.replace(/^"(.*)"$/, '$1');
  if (s === 'oldest') return 0;
  if (s === 'newest') return LARGER_THAN_MAX_MESSAGE_ID;
  if (s === 'first_unread') return null;
  if (!/^-?\d+$/.test(s)) throw errors.badRequest('Invalid anchor');
  const n = Number(s);
  return n < 0 ? 0 : Math.min(n, LARGER_THAN_MAX_MESSAGE_ID);
}

/** Zulip: leaving the anchor out only makes sense at an end of the range (GET /messages, flags/narrow). */
export function checkAnchorExclusion(numBefore: number, numAfter: number, includeAnchor: boolean): void {
  if (numBefore > 0 && numAfter > 0 && !includeAnchor) {
    throw errors.badRequest('The anchor can only be excluded at an end of the range');
  }
}

function formatOptions(req: ApiRequest): FormatOptions {
  const { params } = req;
  return {
    applyMarkdown: params.get('apply_markdown', t.bool, true),
    clientGravatar: params.get('client_gravatar', t.bool, true),
    allowEmptyTopicName: params.get('allow_empty_topic_name', t.bool, false),
  };
}

/** GET /messages (logged out: web-public channels only, when the organization allows spectators). */
export async function getMessages(req: ApiRequest): Promise<ViewResult> {
  const { app, params, user } = req;
  let narrow = params.get('narrow', narrowParam, []);
  if (!user) {
    if (!webPublicChannelsEnabled(app)) throw errors.unauthorized();
    // Zulip's clean_narrow_for_web_public_api: a spectator's in:home (the web app's default view) means everything.
    narrow = narrow.filter((t) => !(t.operator === 'in' && t.operand === 'home' && !t.negated));
    checkSpectatorNarrow(app, narrow);
  }
  const format = formatOptions(req);
  const ids = params.get('message_ids', t.json(v.nullable(v.list(v.int))), null);
  if (ids !== null) {
    // Spectators too (their narrow names a web-public channel, checked above): only what they may read is returned.
    // Zulip: a range request (counts above zero, an anchor, use_first_unread_anchor) conflicts with message_ids;
    // include_anchor does not (it is ignored: the anchor is off).
    const ranged =
      params.get('num_before', nonNegative, 0) > 0 ||
      params.get('num_after', nonNegative, 0) > 0 ||
      params.has('anchor') ||
      params.get('use_first_unread_anchor', t.bool, false);
    if (ranged) {
      throw errors.incompatibleParameters(['num_before', 'num_after', 'anchor', 'message_ids', 'include_anchor', 'use_first_unread_anchor']);
    }
    params.get('include_anchor', t.bool, true);
    if (ids.length > MAX_MESSAGES_PER_FETCH) {
      throw errors.badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
    }
    return fetchByIds(app, user, narrow, ids, format);
  }
  const anchor = anchorParam(req);
  const numBefore = params.require('num_before', nonNegative);
  const numAfter = params.require('num_after', nonNegative);
  const includeAnchor = params.get('include_anchor', t.bool, true);
  if (numBefore + numAfter > MAX_MESSAGES_PER_FETCH) {
    throw errors.badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  }
  checkAnchorExclusion(numBefore, numAfter, includeAnchor);
  return fetchRange(app, user, narrow, { anchor, numBefore, numAfter, includeAnchor }, format);
}

/** Zulip's access_message: missing and unreadable messages look the same. */
export function accessMessage(req: ApiRequest, user: UserRecord): MessageRecord {
  const m = req.app.store.messages.get(pathInt(req, 'message_id'));
  if (!m || !canReadMessage(req.app, user, m)) throw errors.badRequest('Invalid message(s)');
  return m;
}

/** GET /messages/{message_id} */
export function getMessage(req: ApiRequest): ViewResult {
  const user = requireUser(req);
  const m = accessMessage(req, user);
  const message = formatForViewer(req.app, user, m, formatOptions(req));
  return { raw_content: m.content, message };
}

/** GET /messages/{message_id}/history */
export function getMessageHistory(req: ApiRequest): ViewResult {
  const user = requireUser(req);
  // Zulip's get_message_edit_history: refused before the message is even looked up.
  if (req.app.store.realm.data.realm?.settings.allow_edit_history === false) {
    throw errors.badRequest('Message edit history is disabled in this organization');
  }
  const m = accessMessage(req, user);
  const allowEmpty = req.params.get('allow_empty_topic_name', t.bool, false);
  return { message_history: messageHistory(m, allowEmpty) };
}

/** GET /messages/matches_narrow: of these IDs, the ones the user received that match. */
export function matchesNarrow(req: ApiRequest): ViewResult {
  const { app, params } = req;
  const user = requireUser(req);
  const ids = params.require('msg_ids', t.json(v.list(v.int)));
  const narrow = params.require('narrow', narrowParam);
  const allowEmpty = params.get('allow_empty_topic_name', t.bool, false);
  const n = prepareNarrow(app, user, narrow);
  const hl = highlighterFor(n.compiled.searchWords);
  const messages: Record<string, Record<string, unknown>> = {};
  for (const id of ids) {
    const m = app.store.messages.get(id);
    if (!m || app.store.messages.rowFlags(m, user.id) === null || !n.accept(m)) continue;
    const dict: Record<string, unknown> = {};
    withMatches(m, dict, hl, allowEmpty);
    messages[String(id)] = dict;
  }
  return { messages };
}
