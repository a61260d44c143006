import { doAddSubscriptions } from '../actions/subscriptions.js';
import { doCreateUser, doRegenerateApiKey } from '../actions/users.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { v } from '../params/validate.js';
import { webPublicChannels } from '../lib/channels/queries.js';
import { accessFilter, formatUser, } from '../lib/people/people.js';
import { accessUserByPath } from '../lib/people/access.js';
import { validateNewAccount } from '../lib/people/new-account.js';
import type { UserRecord } from '../store/records.js';
import { requireAdmin } from '../lib/people/require.js';
import { requireUser } from '../lib/people/require.js';
import { systemBot } from '../lib/people/system-bots.js';
import { doWelcomeNewUser } from '../actions/onboarding.js';

/** The newest message the user received (-1 when none): `max_message_id` of GET /users/me. */
export const maxMessageIdFor = (req: ApiRequest, user: UserRecord): number =>
  req.app.store.messages.userMessages(user.id).last ?? -1;

/** GET /users/me: the requester's own member object, with profile data and `max_message_id`. */
export function getOwnUser(req: ApiRequest): ViewResult {
  const user = requireUser(req);
  return { ...formatUser(req.app, user, user), max_message_id: maxMessageIdFor(req, user) };
}

function readListOptions(req: ApiRequest): { profileData: boolean } {
  req.params.get('client_gravatar', t.bool, true); // no effect: Hearth never uses a third-party avatar
  return { profileData: req.params.get('include_custom_profile_fields', t.bool, false) };
}

/**
 * GET /users: every user the requester may access (guests limited by
 * can_access_all_users_group see only those, as `user_list_incomplete`
 * clients do), optionally only `user_ids`. Spectators only when the
 * organization is web-public (Zulip's allow_web_public_streams_access: the
 * server switch, spectator access and at least one web-public channel).
 */
export function listUsers(req: ApiRequest): ViewResult {
  const { app, user } = req;
  if (!user && webPublicChannels(app).length === 0) throw errors.unauthorized();
  const opts = readListOptions(req);
  const ids = req.params.get('user_ids', t.json(v.list(v.int)));
  const wanted = ids ? new Set(ids) : null;
  const accessible = accessFilter(app, user);
  const members = app.store.users
    .all()
    .filter((u) => (!wanted || wanted.has(u.id)) && (!accessible || accessible(u)))
    .map((u) => formatUser(app, user, u, opts));
  return { members };
}

/** GET /users/{user_id} and GET /users/{email}: one user, deactivated users and bots included. */
export function getUser(req: ApiRequest): ViewResult {
  const user = requireUser(req);
  const opts = readListOptions(req);
  const raw = req.path.user_id ?? '';
  // Zulip's get_user_by_id_in_realm_including_cross_realm: system bots answer too.
  const bot = /^\d{1,15}$/.test(raw) ? systemBot(req.app, Number(raw)) : undefined;
  if (bot) return { user: { ...formatUser(req.app, user, bot, opts), is_system_bot: true } };
  const target = accessUserByPath(req.app, user, req.path.user_id ?? '', {
    allowDeactivated: true,
    allowBots: true,
    forAdmin: false,
  });
  return { user: formatUser(req.app, user, target, opts) };
}

/**
 * POST /users: administrators create a member account, subscribed to the
 * organization's default channels (Zulip's set_up_streams_and_groups_for_new_human_user).
 * Its `date_joined` is the creation time until the first login, then that login's time.
 */
export async function createUser(req: ApiRequest): Promise<ViewResult> {
  const requester = requireAdmin(req);
  const { app } = req;
  const email = req.params.require('email', t.string).trim();
  const password = req.params.require('password', t.string);
  const rawName = req.params.require('full_name', t.string);
  const fullName = validateNewAccount(req, email, password, rawName);
  const user = await doCreateUser(app, { email, password, fullName, role: 400, viaApi: true });
  const defaults = app.store.channels.data.channels.filter((c) => c.is_default_stream && !c.is_archived);
  if (defaults.length) {
    await doAddSubscriptions(app, requester, { create: [], existing: defaults, users: [user], colors: new Map() });
  }
  await doWelcomeNewUser(app, user);
  return { user_id: user.id };
}

/** POST /users/me/api_key/regenerate (Zulip's regenerate_api_key): `{api_key}`, the new key. */
export async function regenerateOwnApiKey(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  if (user.is_bot) throw errors.badRequest('This endpoint does not accept bot requests.');
  return { api_key: await doRegenerateApiKey(req.app, user) };
}
