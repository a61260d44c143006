/** /saved_snippets and /navigation_views (Zulip 10 and 11). */
import type { ApiRequest, ViewResult } from '../context.js';
import {
  doAddNavView,
  doAddSnippet,
  doRemoveNavView,
  doRemoveSnippet,
  doUpdateNavView,
  doUpdateSnippet,
} from '../actions/saved-items.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { pathInt } from './common.js';
import { requireUser } from '../lib/people/require.js';

const MAX_TITLE = 60;
/** Zulip's built-in views, which may be pinned without a name. */
const BUILT_IN_VIEWS: ReadonlySet<string> = new Set(['inbox', 'recent', 'feed', 'starred', 'mentions', 'my-reactions', 'drafts', 'scheduled', 'reminders']);

function checkTitle(raw: string): string {
  const title = raw.trim();
  if (!title) throw errors.badRequest('Title cannot be empty.');
  if ([...title].length > MAX_TITLE) throw errors.badRequest(`Title cannot be longer than ${MAX_TITLE} characters.`);
  return title;
}

function checkContent(raw: string): string {
  if (!raw.trim()) throw errors.badRequest('Content cannot be empty.');
  return raw;
}

export function listSnippets(req: ApiRequest): ViewResult {
  return { saved_snippets: (requireUser(req).saved_snippets ?? []).map((s) => ({ ...s })) };
}

export async function createSnippet(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const title = checkTitle(req.params.require('title', t.string));
  const content = checkContent(req.params.require('content', t.string));
  return { saved_snippet_id: await doAddSnippet(req.app, user, title, content) };
}

function ownSnippet(req: ApiRequest) {
  const user = requireUser(req);
  const id = pathInt(req, 'saved_snippet_id');
  const snippet = user.saved_snippets?.find((s) => s.id === id);
  if (!snippet) throw errors.notFound('Saved snippet does not exist.');
  return { user, snippet };
}

export async function editSnippet(req: ApiRequest): Promise<ViewResult> {
  const { user, snippet } = ownSnippet(req);
  const rawTitle = req.params.get('title', t.string);
  const rawContent = req.params.get('content', t.string);
  if (rawTitle === undefined && rawContent === undefined) throw errors.badRequest('At least one of title or content must be provided.');
  await doUpdateSnippet(req.app, user, snippet, {
    ...(rawTitle !== undefined ? { title: checkTitle(rawTitle) } : {}),
    ...(rawContent !== undefined ? { content: checkContent(rawContent) } : {}),
  });
  return {};
}

export async function deleteSnippet(req: ApiRequest): Promise<ViewResult> {
  const { user, snippet } = ownSnippet(req);
  await doRemoveSnippet(req.app, user, snippet.id);
  return {};
}

export function listNavViews(req: ApiRequest): ViewResult {
  return { navigation_views: (requireUser(req).navigation_views ?? []).map((v) => ({ ...v })) };
}

export async function createNavView(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const fragment = req.params.require('fragment', t.string).trim();
  const isPinned = req.params.require('is_pinned', t.bool);
  const rawName = req.params.get('name', t.string);
  if (!fragment) throw errors.badRequest('Fragment cannot be empty.');
  if (user.navigation_views?.some((v) => v.fragment === fragment)) throw errors.badRequest('Navigation view already exists.');
  const builtIn = BUILT_IN_VIEWS.has(fragment);
  if (builtIn && rawName !== undefined) throw errors.badRequest('Built-in views cannot have a custom name.');
  if (!builtIn && !rawName?.trim()) throw errors.badRequest('Custom views must have a name.');
  await doAddNavView(req.app, user, { fragment, is_pinned: isPinned, name: builtIn ? null : rawName!.trim() });
  return {};
}

function ownNavView(req: ApiRequest) {
  const user = requireUser(req);
  // The router decodes path parameters once, as Django does; the fragment may hold slashes.
  const fragment = req.path.fragment ?? '';
  const view = user.navigation_views?.find((v) => v.fragment === fragment);
  if (!view) throw errors.badRequest('Navigation view does not exist.');
  return { user, view };
}

export async function editNavView(req: ApiRequest): Promise<ViewResult> {
  const { user, view } = ownNavView(req);
  const isPinned = req.params.get('is_pinned', t.bool);
  const rawName = req.params.get('name', t.string);
  if (isPinned === undefined && rawName === undefined) throw errors.badRequest('At least one of name or is_pinned must be provided.');
  if (rawName !== undefined && BUILT_IN_VIEWS.has(view.fragment)) throw errors.badRequest('Built-in views cannot have a custom name.');
  if (rawName !== undefined && !rawName.trim()) throw errors.badRequest('Custom views must have a name.');
  await doUpdateNavView(req.app, user, view, {
    ...(isPinned !== undefined ? { is_pinned: isPinned } : {}),
    ...(rawName !== undefined ? { name: rawName.trim() } : {}),
  });
  return {};
}

export async function deleteNavView(req: ApiRequest): Promise<ViewResult> {
  const { user, view } = ownNavView(req);
  await doRemoveNavView(req.app, user, view.fragment);
  return {};
}
