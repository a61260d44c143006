import { doAddSubscriptions, doRemoveSubscriptions, type Pair } from '../actions/subscriptions.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t, type ParamType } from '../params/params.js';
import { v, type Validator } from '../params/validate.js';
import { subscriptionLists, type IncludeSubscribers } from '../lib/channels/queries.js';
import { hasRealmPermission } from '../lib/channels/settings.js';
import { canAddSubscribers, canRemoveSubscribers, channelByName, hasContentAccess, hasMetadataAccess } from '../lib/channels/access.js';
import { checkChannelDescription, checkChannelName, checkColor } from '../lib/channels/validate.js';
import { isGuest } from '../lib/people/people.js';
import type { ChannelRecord } from '../store/channel-records.js';
import type { UserRecord } from '../store/records.js';
import { newChannelSpecs } from './channel-create.js';
import { requireUser } from '../lib/people/require.js';
import { resolvePrincipals } from '../lib/people/principals.js';
import { doAnnounceNewChannels, doSendSubscriptionNotices } from '../actions/subscription-notices.js';

/** Principals: all user IDs or all API emails. */
const principalsValidator: Validator<(number | string)[]> = (x, p) => {
  if (!Array.isArray(x)) throw errors.badRequest(`${p} is not a list`);
  if (x.every((e) => typeof e === 'string')) return x as string[];
  return v.list(v.int)(x, p);
};

const subscriptionItem = v.dict({ name: v.str }, { color: v.str, description: v.str }, { allowExtra: true });

const byUser = (pairs: Pair[]): Record<string, string[]> => {
  const out: Record<string, string[]> = {};
  for (const { user, channel } of pairs) (out[String(user.id)] ??= []).push(channel.name);
  return out;
};

type Item = { name: string; color?: string; description?: string };
/** A validated request: running it changes the store and answers the response fields. */
type Plan = () => Promise<ViewResult>;

/**
 * Zulip's add_subscriptions_backend up to the change: names, colours,
 * creation parameters, access and permission checks. Guests may not use it.
 */
function planSubscribe(req: ApiRequest, user: UserRecord, items: Item[], principals: (number | string)[] | null): Plan {
  const { app, params } = req;
  if (isGuest(user)) throw errors.badRequest('Not allowed for guest users');
  const fatal = params.get('authorization_errors_fatal', t.bool, true);
  const announce = params.get('announce', t.bool, false);
  const sendMessages = params.get('send_new_subscription_messages', t.bool);

  // Names, descriptions and colours, first occurrence of each name wins.
  const colors = new Map<string, string>();
  const wanted = new Map<string, { name: string; description: string }>();
  items.forEach((item, i) => {
    const name = checkChannelName(item.name);
    const key = name.toLowerCase();
    if (item.color !== undefined) colors.set(key, checkColor(item.color, `subscriptions[${i}]["color"]`));
    if (!wanted.has(key)) wanted.set(key, { name, description: checkChannelDescription(item.description ?? '') });
  });
  const existing: ChannelRecord[] = [];
  const missing: { name: string; description: string }[] = [];
  for (const w of wanted.values()) {
    const c = channelByName(app, w.name);
    if (c) existing.push(c);
    else missing.push(w);
  }
  const create = newChannelSpecs(req, user, missing);

  const authorized = existing.filter((c) => hasContentAccess(app, user, c));
  const unauthorized = existing.filter((c) => !authorized.includes(c));
  if (unauthorized.length > 0 && fatal) {
    throw errors.badRequest(`Unable to access channel (${unauthorized[0]!.name}).`);
  }
  const users = principals && principals.length > 0 ? resolvePrincipals(req, principals) : [user];
  if (users.some((u) => u.id !== user.id)) {
    const allAccessible = hasRealmPermission(app, user, 'can_add_subscribers_group');
    if (!allAccessible && authorized.some((c) => !canAddSubscribers(app, user, c))) {
      throw errors.badRequest('Insufficient permission');
    }
  }

  return async () => {
    const result = await doAddSubscriptions(app, user, { create, existing: authorized, users, colors });
    const created = result.subscribed.map((p) => p.channel).filter((c) => create.some((spec) => spec.name.toLowerCase() === c.name.toLowerCase()));
    const sent = sendMessages === false ? false : await doSendSubscriptionNotices(app, user, result.subscribed, created);
    if (announce) await doAnnounceNewChannels(app, user, [...new Set(created)]);
    return {
      subscribed: byUser(result.subscribed),
      already_subscribed: byUser(result.already),
      ...(fatal ? {} : { unauthorized: unauthorized.map((c) => c.name) }),
      ...(sendMessages === true ? { new_subscription_messages_sent: sent } : {}),
    };
  };
}

/**
 * Zulip's remove_subscriptions_backend up to the change: yourself, your bots,
 * or (with can_remove_subscribers_group, administering the channels, or as an
 * organization administrator) others. Channels the requester may not know are
 * reported as not existing.
 */
function planUnsubscribe(req: ApiRequest, user: UserRecord, names: string[], principals: (number | string)[] | null): Plan {
  const { app } = req;
  const targets = principals && principals.length > 0 ? resolvePrincipals(req, principals) : [user];
  const others = targets.some((u) => u.id !== user.id && !(u.is_bot && u.bot_owner_id === user.id));

  const channels: ChannelRecord[] = [];
  for (const raw of names) {
    const c = channelByName(app, raw);
    if (!c || !hasMetadataAccess(app, user, c)) throw errors.streamDoesNotExist(raw.trim());
    if (!channels.includes(c)) channels.push(c);
  }
  if (others && !canRemoveSubscribers(app, user, channels)) throw errors.badRequest('Insufficient permission');

  return async () => {
    const { removed, notRemoved } = await doRemoveSubscriptions(app, targets, channels);
    return { removed: removed.map((p) => p.channel.name), not_removed: notRemoved.map((p) => p.channel.name) };
  };
}

const principalsParam = t.json(v.nullable(principalsValidator));

/** POST /users/me/subscriptions: subscribe yourself or `principals`, creating the missing channels. */
export async function subscribe(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const items = req.params.require('subscriptions', t.json(v.list(subscriptionItem)));
  return planSubscribe(req, user, items, req.params.get('principals', principalsParam, null))();
}

/** DELETE /users/me/subscriptions. */
export async function unsubscribe(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const names = req.params.require('subscriptions', t.json(v.list(v.str)));
  return planUnsubscribe(req, user, names, req.params.get('principals', principalsParam, null))();
}

/**
 * PATCH /users/me/subscriptions (Zulip's update_subscriptions_backend): your
 * own subscriptions in (`add`, items as for POST) and out (`delete`, names) in
 * one request, with the channels' default settings for any it creates. Both
 * halves are checked before either changes anything; the answer merges both.
 */
export async function updateSubscriptions(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const add = req.params.get('add', t.json(v.list(subscriptionItem)), []);
  const del = req.params.get('delete', t.json(v.list(v.str)), []);
  if (add.length === 0 && del.length === 0) {
    throw errors.badRequest('Nothing to do. Specify at least one of "add" or "delete".');
  }
  // As in Zulip, the adding half always runs, so guests are refused even with only `delete`.
  const adding = planSubscribe(req, user, add, null);
  const removing = planUnsubscribe(req, user, del, null);
  return { ...(await adding()), ...(await removing()) };
}

/** include_subscribers: true, false (JSON booleans or strings) or "partial". */
export const includeSubscribersParam: ParamType<IncludeSubscribers> = {
  read(raw, name) {
    const s = raw.replace(/^"(.*)"$/, '$1');
    if (s === 'true' || s === 'false' || s === 'partial') return s;
    throw errors.badRequest(`Invalid ${name}: must be true, false or partial`);
  },
};

/** GET /users/me/subscriptions: the active, non-archived subscriptions, sorted by name. */
export function listSubscriptions(req: ApiRequest): ViewResult {
  const user = requireUser(req);
  const includeSubscribers = req.params.get('include_subscribers', includeSubscribersParam, 'false');
  const lists = subscriptionLists(req.app, user, { includeSubscribers, includeArchived: false });
  return { subscriptions: lists.subscriptions };
}
