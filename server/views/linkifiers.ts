/**
 * Linkifiers (Zulip's zerver/views/realm_linkifiers.py): GET /realm/linkifiers
 * for everyone; POST /realm/filters, PATCH and DELETE /realm/filters/{id},
 * PATCH /realm/linkifiers (order) for administrators.
 */
import type { ApiRequest, ViewResult } from '../context.js';
import {
  doAddLinkifier,
  doRemoveLinkifier,
  doReorderLinkifiers,
  doUpdateLinkifier,
} from '../actions/linkifiers.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { v } from '../params/validate.js';
import { checkLinkifier, linkifiersForApi } from '../lib/realm/linkifiers.js';
import type { LinkifierRecord } from '../store/records.js';
import { pathInt } from './common.js';
import { requireAdmin } from '../lib/people/require.js';
import { requireUser } from '../lib/people/require.js';

export function listLinkifiers(req: ApiRequest): ViewResult {
  requireUser(req);
  return { linkifiers: linkifiersForApi(req.app) };
}

const current = (req: ApiRequest): LinkifierRecord[] => req.app.store.realm.data.realm?.linkifiers ?? [];

function readLinkifier(req: ApiRequest, except?: number): { pattern: string; urlTemplate: string } {
  const pattern = req.params.require('pattern', t.string).trim();
  const urlTemplate = req.params.require('url_template', t.string).trim();
  checkLinkifier(pattern, urlTemplate);
  if (current(req).some((l) => l.id !== except && l.pattern === pattern)) {
    throw errors.badRequest('Linkifier with this Pattern already exists.');
  }
  return { pattern, urlTemplate };
}

function existing(req: ApiRequest): number {
  const id = pathInt(req, 'filter_id');
  if (!current(req).some((l) => l.id === id)) throw errors.badRequest('Linkifier not found.');
  return id;
}

export async function addLinkifier(req: ApiRequest): Promise<ViewResult> {
  requireAdmin(req);
  const { pattern, urlTemplate } = readLinkifier(req);
  return { id: await doAddLinkifier(req.app, pattern, urlTemplate) };
}

export async function updateLinkifier(req: ApiRequest): Promise<ViewResult> {
  requireAdmin(req);
  const id = existing(req);
  const { pattern, urlTemplate } = readLinkifier(req, id);
  await doUpdateLinkifier(req.app, id, pattern, urlTemplate);
  return {};
}

export async function removeLinkifier(req: ApiRequest): Promise<ViewResult> {
  requireAdmin(req);
  await doRemoveLinkifier(req.app, existing(req));
  return {};
}

export async function reorderLinkifiers(req: ApiRequest): Promise<ViewResult> {
  requireAdmin(req);
  const ids = req.params.require('ordered_linkifier_ids', t.json(v.list(v.int)));
  const set = new Set(ids);
  if (set.size < ids.length) throw errors.badRequest('The ordered list must not contain duplicated linkifiers');
  const existingIds = current(req).map((l) => l.id);
  if (existingIds.length !== set.size || existingIds.some((id) => !set.has(id))) {
    throw errors.badRequest('The ordered list must enumerate all existing linkifiers exactly once');
  }
  if (ids.length) await doReorderLinkifiers(req.app, ids);
  return {};
}
