/**
 * Hearth's own server switches an owner changes from the organization settings (`PATCH /realm`, like
 * the organization's settings, but never announced to clients): the API rate limit, plain
 * HTTP (off: HTTP only redirects to HTTPS and serves the trust page), and LAN discovery.
 * `GET /hearth/status` shows their values. One is announced as the organization's settings are
 * (register's `realm_hearth_allow_loopback_webhooks`, realm `update` events): whether outgoing
 * webhooks may call this computer itself.
 */
import { errors } from '../../errors.js';
import { t } from '../../params/params.js';
import type { RealmSetting } from './setting-definition.js';

export const SERVER_SETTINGS: RealmSetting[] = [
  {
    name: 'hearth_api_rate_limit',
    type: t.int,
    who: 'owner',
    stored: { in: 'settings', key: 'hearth_api_rate_limit' },
    fallback: null,
    secret: true,
    validate: (value: unknown) => {
      const n = value as number;
      if (!Number.isInteger(n) || n < 0 || n > 100_000) throw errors.badRequest('hearth_api_rate_limit must be 0 (off) to 100000 requests a minute');
      return n;
    },
  } as RealmSetting,
  {
    name: 'hearth_plain_http',
    type: t.bool,
    who: 'owner',
    stored: { in: 'settings', key: 'hearth_plain_http' },
    fallback: true,
    secret: true,
  } as RealmSetting,
  {
    name: 'hearth_discovery',
    type: t.bool,
    who: 'owner',
    stored: { in: 'settings', key: 'hearth_discovery' },
    fallback: true,
    secret: true,
  } as RealmSetting,
  {
    // Off by default: a bot's URL naming this computer (loopback, its own addresses) would let any
    // member who makes a bot send requests to services listening only locally.
    name: 'hearth_allow_loopback_webhooks',
    type: t.bool,
    who: 'owner',
    stored: { in: 'settings', key: 'hearth_allow_loopback_webhooks' },
    fallback: false,
  } as RealmSetting,
];
