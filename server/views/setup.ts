import { doOnboardRealm } from '../actions/onboarding.js';
import { doCreateRealm } from '../actions/users.js';
import { MIN_PASSWORD_LENGTH } from '../auth/secrets.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { isOwnAddress, isOwnHost } from '../lib/network/lan-urls.js';
import { isValidEmail } from '../lib/people/people.js';
import { cleanDisplayName } from '../lib/people/display-name.js';
import { isReservedName, reservedEmailReason } from '../lib/people/reserved.js';
import { setupTokenMatches } from '../lib/runtime/setup-token.js';
import { serverLanUrls } from '../lib/network/server-urls.js';
import { crossSite } from '../http/cross-site.js';

/** Zulip's Realm.MAX_REALM_NAME_LENGTH and UserProfile.MAX_NAME_LENGTH. */
const MAX_REALM_NAME_LENGTH = 40;
const MAX_FULL_NAME_LENGTH = 100;

/**
 * Whether the request may set up without a token: it comes from this computer (the socket's
 * remote address is loopback or one of the computer's own addresses), is addressed to a name
 * or address of this computer (not a DNS-rebound domain) and, when sent by a browser, is not
 * a cross-site request (a web page the owner visits cannot post a setup form to 127.0.0.1).
 */
function fromThisComputer(req: ApiRequest): boolean {
  const ctx = req.koa;
  const interfaces = req.app.config.networkInterfaces();
  if (!isOwnAddress(ctx.req.socket.remoteAddress, interfaces)) return false;
  const host = ctx.get('host').toLowerCase();
  const hostname = host.replace(/:\d+$/, '');
  return isOwnHost(hostname, interfaces) && !crossSite(ctx);
}

/** GET /hearth/setup: whether this server still needs first-run setup (no auth, no organization needed). */
export function getSetup(req: ApiRequest): ViewResult {
  return {
    needs_setup: req.app.store.realm.data.realm === null,
    setup_token_required: !fromThisComputer(req),
  };
}

/**
 * POST /hearth/setup: creates the organization and its owner (as `hearth init` does). Only
 * while there is no organization, and only from loopback or with the one-time setup token.
 */
export async function postSetup(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const token = params.get('setup_token', t.string);
  if (app.store.realm.data.realm !== null || app.setupInProgress) throw errors.realmAlreadySetUp();
  if (!fromThisComputer(req) && !setupTokenMatches(app.config.setupToken, token)) throw errors.setupNotAllowed();

  const realmName = params.require('realm_name', t.string).trim();
  const email = params.require('email', t.string).trim();
  const password = params.require('password', t.string);
  const fullName = cleanDisplayName(params.get('full_name', t.string) ?? '') || email.split('@')[0]!;
  if (!realmName) throw errors.invalidVar('realm_name', 'Organization name must not be empty');
  if (realmName.length > MAX_REALM_NAME_LENGTH) {
    throw errors.invalidVar('realm_name', `Organization name is too long (at most ${MAX_REALM_NAME_LENGTH} characters)`);
  }
  if (fullName.length > MAX_FULL_NAME_LENGTH) throw errors.invalidVar('full_name', 'Name too long!');
  if (/[\u0000-\u001f\u007f]/.test(realmName + fullName)) throw errors.badRequest('Invalid characters in name!');
  if (!isValidEmail(email)) throw errors.invalidVar('email', `Invalid email address '${email}'`);
  const reserved = reservedEmailReason(app, email);
  if (reserved) throw errors.invalidVar('email', reserved);
  if (isReservedName(fullName)) throw errors.invalidVar('full_name', `The name '${fullName}' is reserved for a system bot.`);
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw errors.invalidVar('password', `The password must be at least ${MIN_PASSWORD_LENGTH} characters long`);
  }

  app.setupInProgress = true;
  try {
    const owner = await doCreateRealm(app, realmName, { email, password, fullName });
    app.config.setupToken = null;
    await doOnboardRealm(app, owner);
    app.log.info('organization created through the setup page', { realm: realmName, owner: owner.id });
    return { user_id: owner.id, email: owner.email, api_key: owner.api_key, lan_urls: serverLanUrls(req) };
  } finally {
    app.setupInProgress = false;
  }
}
