/**
 * Invitations (Zulip's zerver/views/invite.py): reusable invite links
 * (POST /invites/multiuse, DELETE /invites/multiuse/{id}), GET /invites, and
 * Hearth's join step (POST /api/v1/hearth/join, or /json/hearth/join, which also signs the
 * browser in; the page at /join/<key>/).
 * Email invitations answer that this server sends no email.
 */
import type { ApiRequest, ViewResult } from '../context.js';
import { doCreateInviteLink, doEditInviteLink, doJoinWithInvite, doRevokeInviteLink } from '../actions/invites.js';
import { doCreateSession } from '../actions/sessions.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { v } from '../params/validate.js';
import { canAddSubscribers, channelById, hasContentAccess } from '../lib/channels/access.js';
import { isLoopbackHost } from '../lib/network/lan-urls.js';
import { DEFAULT_INVITE_MINUTES, canCreateInviteLinks, formatInvite, inviteByKey, inviteLink, invitesFor } from '../lib/realm/invites.js';
import { isAdmin, isGuest, isOwner } from '../lib/people/people.js';
import { sessionCookie, sessionIdForToken, sessionTokenFrom } from '../auth/sessions.js';
import { ROLE, type InviteRecord, type Role, type UserRecord } from '../store/records.js';
import { baseUrl, pathInt } from './common.js';
import { requireUser } from '../lib/people/require.js';
import { serverLanUrls } from '../lib/network/server-urls.js';
import { validateNewAccount } from '../lib/people/new-account.js';
import { servePage } from './web-client.js';

/**
 * The address links for other people use: the request's, unless that is the server computer's
 * loopback (the desktop window), which nobody else can open; then the first LAN address.
 */
function shareableBaseUrl(req: ApiRequest): string {
  const own = baseUrl(req);
  if (!isLoopbackHost(req.koa.hostname)) return own;
  const lan = serverLanUrls(req).find((u) => URL.canParse(u) && !isLoopbackHost(new URL(u).hostname));
  return lan ? new URL(lan).origin : own;
}

function requireMember(req: ApiRequest): UserRecord {
  const user = requireUser(req);
  if (isGuest(user)) throw errors.badRequest('Not allowed for guest users');
  return user;
}

/** Zulip's check_role_based_permissions. */
function checkRole(user: UserRecord, role: Role, requireAdmin: boolean): void {
  if (role === ROLE.OWNER && !isOwner(user)) throw errors.ownerRequired();
  if (requireAdmin && !isAdmin(user)) throw errors.adminRequired();
}

/** The role an invite gives, checked against what the requester may hand out. */
function inviteRole(req: ApiRequest, user: UserRecord, fallback: Role): Role {
  const role = req.params.get('invite_as', t.int, fallback) as Role;
  if (!(Object.values(ROLE) as number[]).includes(role)) throw errors.invalidVar('invite_as');
  checkRole(user, role, role === ROLE.OWNER || role === ROLE.ADMIN || role === ROLE.MODERATOR);
  return role;
}

/** The channels an invite subscribes to: each readable by the requester, who may subscribe others to it. */
function inviteChannels(req: ApiRequest, user: UserRecord, fallback: number[]): number[] {
  const { app } = req;
  const streamIds = req.params.get('stream_ids', t.json(v.list(v.int)), fallback);
  for (const id of streamIds) {
    const c = channelById(app, id);
    if (!c || !hasContentAccess(app, user, c)) throw errors.badRequest(`Invalid channel ID ${id}. No invites were sent.`);
    if (!c.is_default_stream && !canAddSubscribers(app, user, c)) {
      throw errors.badRequest('You do not have permission to subscribe other users to channels.');
    }
  }
  return [...new Set(streamIds)];
}

export async function createInviteLink(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireMember(req);
  if (!canCreateInviteLinks(app, user)) throw errors.badRequest('Insufficient permission');
  const role = inviteRole(req, user, ROLE.MEMBER);
  const minutes = params.get('invite_expires_in_minutes', t.json(v.nullable(v.int)), DEFAULT_INVITE_MINUTES);
  if (minutes !== null && minutes < 1) throw errors.invalidVar('invite_expires_in_minutes');
  const streamIds = inviteChannels(req, user, []);
  const includeDefaults = params.get('include_realm_default_subscriptions', t.bool, false);
  const inv = await doCreateInviteLink(app, user, { role, expiresInMinutes: minutes, streamIds, includeDefaults });
  return { invite_link: inviteLink(shareableBaseUrl(req), inv.key) };
}

/** An invite link the requester may manage: their own, or (administrators) anyone's they could have made. */
function manageableInvite(req: ApiRequest, user: UserRecord): InviteRecord {
  const id = pathInt(req, 'invite_id');
  const inv = req.app.store.invites.data.invites.find((i) => i.id === id);
  if (!inv) throw errors.badRequest('No such invitation');
  if (inv.invited_by !== user.id) checkRole(user, inv.role, true);
  return inv;
}

/**
 * PATCH /invites/multiuse/{invite_id}: change what a link gives (role, channels, the
 * default channels) without a new link; the same checks as creating one.
 */
export async function editInviteLink(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireMember(req);
  const inv = manageableInvite(req, user);
  if (!canCreateInviteLinks(app, user)) throw errors.badRequest('Insufficient permission');
  const role = inviteRole(req, user, inv.role);
  const streamIds = inviteChannels(req, user, inv.stream_ids);
  const includeDefaults = params.get('include_realm_default_subscriptions', t.bool, inv.include_realm_default_subscriptions);
  await doEditInviteLink(app, inv, { role, streamIds, includeDefaults });
  return {};
}

export function listInvites(req: ApiRequest): ViewResult {
  const user = requireMember(req);
  const base = shareableBaseUrl(req);
  return { invites: invitesFor(req.app, user).map((i) => formatInvite(i, base)) };
}

export async function revokeInviteLink(req: ApiRequest): Promise<ViewResult> {
  const user = requireMember(req);
  await doRevokeInviteLink(req.app, manageableInvite(req, user));
  return {};
}

/** POST /invites, DELETE /invites/{id}, POST /invites/{id}/resend: no email here. */
export function emailInvites(req: ApiRequest): ViewResult {
  requireMember(req);
  if (req.path.invite_id !== undefined) throw errors.badRequest('No such invitation');
  throw errors.badRequest('This server sends no email: create an invite link instead (POST /invites/multiuse).');
}

/**
 * POST /api/v1/hearth/join: an account from an invite link (no login needed: the key is the
 * permission). Through `/json/hearth/join` (the join page) the new account is also signed in:
 * a browser session and its cookie, as POST /json/login makes (server/API.md: Browser sessions).
 */
export async function joinWithInvite(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const key = params.require('key', t.string);
  const inv = inviteByKey(app, key);
  if (!inv) throw errors.badRequest('This invite link has expired or was revoked. Ask for a new one.');
  const email = params.require('email', t.string).trim();
  const password = params.require('password', t.string);
  const fullName = validateNewAccount(req, email, password, params.require('full_name', t.string));
  const user = await doJoinWithInvite(app, inv, { email, fullName, password });
  if (req.koa.path.startsWith('/json/') && user.password_hash !== null) {
    // The cookie a browser sent before names a session the new one replaces (as login does).
    const previous = sessionTokenFrom(req.koa.get('cookie') || undefined);
    const made = await doCreateSession(app, user, user.password_hash, previous === null ? null : sessionIdForToken(previous));
    // null: deactivated or its password changed meanwhile; the account stands, the browser signs in later.
    if (made) req.koa.set('Set-Cookie', sessionCookie(made.token, req.koa.secure));
  }
  return { user_id: user.id, email: user.email, realm_url: baseUrl(req) };
}

/**
 * GET /join/<key>/: the join page (renderer/join/), which reads the key from its address and sends
 * it only with the join call (its other requests carry no referrer); `/join/<key>` goes there.
 */
export async function joinPage(req: ApiRequest): Promise<void> {
  const key = req.path.key ?? '';
  if (!/^[a-z0-9]{1,64}$/.test(key)) throw errors.notFound('Not Found');
  if (!req.koa.path.endsWith('/')) {
    req.koa.status = 302;
    req.koa.redirect(`/join/${key}/`);
    return;
  }
  await servePage(req, 'join');
}
