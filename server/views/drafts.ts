import { doCreateDrafts, doDeleteDraft, doEditDraft } from '../actions/drafts.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { draftsOf, draftValidator, formatDraft, validateDraft } from '../lib/drafts.js';
import { t } from '../http/params.js';
import { v } from '../http/validate.js';
import { pathInt, requireUser } from './common.js';

export async function createDrafts(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const raw = req.params.get('drafts', t.json(v.list(draftValidator)), []);
  const inputs = raw.map((d) => validateDraft(req.app, user.id, d));
  const ids = await doCreateDrafts(req.app, user.id, inputs);
  return { ids };
}

export function listDrafts(req: ApiRequest): ViewResult {
  const user = requireUser(req);
  const drafts = draftsOf(req.app, user.id).map(formatDraft);
  return { count: drafts.length, drafts };
}

function ownDraft(req: ApiRequest) {
  const user = requireUser(req);
  const id = pathInt(req, 'draft_id');
  const draft = req.app.store.drafts.data.drafts.find((d) => d.id === id && d.user_id === user.id);
  if (!draft) throw errors.notFound('Draft does not exist');
  return { user, draft };
}

export async function editDraft(req: ApiRequest): Promise<ViewResult> {
  const { user, draft } = ownDraft(req);
  const raw = req.params.require('draft', t.json(draftValidator));
  await doEditDraft(req.app, draft, validateDraft(req.app, user.id, raw));
  return {};
}

export async function deleteDraft(req: ApiRequest): Promise<ViewResult> {
  const { draft } = ownDraft(req);
  await doDeleteDraft(req.app, draft);
  return {};
}
