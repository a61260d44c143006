import { doCreateDrafts, doDeleteDraft, doEditDraft } from '../actions/drafts.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { draftsOf, draftValidator, formatDraft, validateDraft, type RawDraft } from '../lib/messages/drafts.js';
import { t } from '../params/params.js';
import { v } from '../params/validate.js';
import { userSetting } from '../lib/people/settings.js';
import type { UserRecord } from '../store/records.js';
import { pathInt } from './common.js';
import { requireUser } from '../lib/people/require.js';
import { normaliseContent } from '../lib/messages/content.js';

/** Zulip's draft_endpoint: every drafts endpoint needs the user's enable_drafts_synchronization. */
function syncingUser(req: ApiRequest): UserRecord {
  const user = requireUser(req);
  if (userSetting(req.app, user, 'enable_drafts_synchronization') === false) {
    throw errors.badRequest('User has disabled synchronizing drafts.');
  }
  return user;
}

/** Zulip's further_validated_draft_dict, starting with normalize_body on the content. */
const validated = (req: ApiRequest, user: UserRecord, d: RawDraft) =>
  validateDraft(req.app, user.id, { ...d, content: normaliseContent(d.content) });

export async function createDrafts(req: ApiRequest): Promise<ViewResult> {
  const user = syncingUser(req);
  const raw = req.params.get('drafts', t.json(v.list(draftValidator)), []);
  const inputs = raw.map((d) => validated(req, user, d));
  const ids = await doCreateDrafts(req.app, user.id, inputs);
  return { ids };
}

export function listDrafts(req: ApiRequest): ViewResult {
  const user = syncingUser(req);
  const drafts = draftsOf(req.app, user.id).map(formatDraft);
  return { count: drafts.length, drafts };
}

function ownDraft(req: ApiRequest) {
  const user = syncingUser(req);
  const id = pathInt(req, 'draft_id');
  const draft = req.app.store.drafts.data.drafts.find((d) => d.id === id && d.user_id === user.id);
  if (!draft) throw errors.notFound('Draft does not exist');
  return { user, draft };
}

export async function editDraft(req: ApiRequest): Promise<ViewResult> {
  const { user, draft } = ownDraft(req);
  const raw = req.params.require('draft', t.json(draftValidator));
  await doEditDraft(req.app, draft, validated(req, user, raw));
  return {};
}

export async function deleteDraft(req: ApiRequest): Promise<ViewResult> {
  const { draft } = ownDraft(req);
  await doDeleteDraft(req.app, draft);
  return {};
}
