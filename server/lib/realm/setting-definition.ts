/**
 * The shape of one organization setting (server/lib/realm/settings.ts holds the table;
 * group-settings.ts and server-settings.ts add their entries), apart from the table so
 * the files that add entries need not import it.
 */
import type { App } from '../../context.js';
import type { ParamType } from '../../params/params.js';
import type { RealmSettings } from '../../store/records.js';

export interface RealmSetting<T = unknown> {
  /** Parameter name; also the event `property` (register key: `realm_` + name, unless `registerKey`). */
  name: string;
  /** Which endpoint changes it: `PATCH /realm` (default) or `PATCH /realm/user_settings_defaults`. */
  endpoint?: 'realm' | 'user_settings_defaults';
  /** How the raw parameter is read (strings raw, the rest JSON), as Zulip's typed parameters. */
  type: ParamType<T>;
  /** Checks (and normalises) a new value against the current one; throws a HearthError for bad input. */
  validate?: (value: T, app: App, current: T) => T;
  /** The current value when it is not simply the stored one or `fallback` (defaults computed at run time). */
  current?: (app: App) => T;
  /** How clients see a value (events and the response), when not as stored. */
  forApi?: (value: T, app: App) => unknown;
  /** Who may change it (Zulip: administrators, a few settings owners only). */
  who: 'admin' | 'owner';
  /** Where it lives: a field of the realm record, or of `realm.settings`. */
  stored: { in: 'record'; key: 'name' | 'description' } | { in: 'settings'; key: keyof RealmSettings & string };
  /** The value when `settings` has none stored. */
  fallback: T;
  /** The change event: `realm` `update` (default) or `update_dict` with `property: "default"`. */
  event?: 'update' | 'update_dict';
  /** The event's `property` (`update`) or `data` key (`update_dict`) when it is not `name` (Hearth's own parameter for a Zulip setting). */
  eventKey?: string;
  /**
   * Register key (default `realm_` + name; user defaults live in `realm_user_settings_defaults`);
   * null: not in this area's register section (another section shows it, or it is secret).
   */
  registerKey?: string | null;
  /** Never sent to clients (no event, no register field): secrets such as a video-call API secret. */
  secret?: boolean;
}

/** Types one entry against its own value type, then keeps it in the mixed table. */
export const define = <T>(s: RealmSetting<T>): RealmSetting => s as unknown as RealmSetting;
