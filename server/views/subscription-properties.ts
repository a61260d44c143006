import { doChangeSubscriptionProperties, type PropertyChange } from '../actions/subscriptions.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { v } from '../params/validate.js';
import { NOTIFICATION_SETTINGS } from '../lib/channels/format.js';
import { channelById, hasContentAccess, subscriptionOf } from '../lib/channels/access.js';
import { checkColor } from '../lib/channels/validate.js';
import { requireUser } from '../lib/people/require.js';

const BOOLEAN_PROPERTIES: ReadonlySet<string> = new Set(['in_home_view', 'is_muted', 'pin_to_top']);
const NULLABLE_PROPERTIES: ReadonlySet<string> = new Set<string>(NOTIFICATION_SETTINGS);

const changeValidator = v.dict({ stream_id: v.int, property: v.str, value: (x: unknown) => x });

/** Zulip's SubscriptionPropertyChangeRequest: the value's type by property. */
function checkValue(property: string, value: unknown): boolean | string | null {
  if (property === 'color') {
    if (typeof value !== 'string') throw errors.badRequest('color is not a string');
    return checkColor(value, 'color');
  }
  if (NULLABLE_PROPERTIES.has(property)) {
    // null: inherit the user's default for channel messages.
    if (value !== null && typeof value !== 'boolean') throw errors.badRequest(`${property} is not a boolean`);
    return value;
  }
  if (BOOLEAN_PROPERTIES.has(property)) {
    if (typeof value !== 'boolean') throw errors.badRequest(`${property} is not a boolean`);
    return value;
  }
  throw errors.badRequest(`Unknown subscription property: ${property}`);
}

/**
 * POST /users/me/subscriptions/properties: `subscription_data` is a list of
 * {stream_id, property, value}. Every item is checked before any is applied.
 */
export async function updateSubscriptionProperties(req: ApiRequest): Promise<ViewResult> {
  const { app } = req;
  const user = requireUser(req);
  const data = req.params.require('subscription_data', t.json(v.list(changeValidator)));
  const values = data.map((d) => checkValue(d.property, d.value));
  const changes: PropertyChange[] = data.map((d, i) => {
    const channel = channelById(app, d.stream_id);
    if (!channel || channel.is_archived || !hasContentAccess(app, user, channel)) {
      throw errors.badRequest('Invalid channel ID');
    }
    const sub = subscriptionOf(app, user.id, channel.id);
    if (!sub?.active) throw errors.badRequest(`Not subscribed to channel ID ${d.stream_id}`);
    return { channel, sub, property: d.property, value: values[i] ?? null };
  });
  await doChangeSubscriptionProperties(app, user.id, changes);
  return {};
}
