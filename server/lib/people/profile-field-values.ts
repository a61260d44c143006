/**
 * A user's values for custom profile fields: validation per field type (Zulip's
 * FIELD_VALIDATORS, select and user validators) and the stored form.
 */
import type { App } from '../../context.js';
import { errors } from '../../errors.js';
import { PROFILE_FIELD_TYPE as T, type ProfileFieldRecord, type UserRecord } from '../../store/records.js';
import { renderPlainDescription } from '../text.js';
import { renderContextFor } from '../messages/render-context.js';
import { fieldById, isRenderable, selectChoices } from './profile-fields.js';
import { canAccessUser, isAdmin } from './people.js';

const SHORT_MAX = 50;
const LONG_MAX = 500;

const isDate = (s: string): boolean => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
};

const isUrl = (s: string): boolean => {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0;
  } catch {
    return false;
  }
};

function stringValue(name: string, value: unknown, max: number): string {
  if (typeof value !== 'string') throw errors.badRequest(`${name} is not a string`);
  if (value.length > max) throw errors.badRequest(`${name} is too long (limit: ${max} characters)`);
  return value;
}

/** Validates a (non-null) value for a field; returns the stored string. */
export function validateFieldValue(app: App, field: ProfileFieldRecord, value: unknown, acting: UserRecord | null = null): string {
  const name = field.name;
  switch (field.type) {
    case T.SHORT_TEXT:
    case T.EXTERNAL_ACCOUNT:
    case T.PRONOUNS:
      return stringValue(name, value, SHORT_MAX);
    case T.LONG_TEXT:
      return stringValue(name, value, LONG_MAX);
    case T.DATE: {
      const s = stringValue(name, value, SHORT_MAX);
      if (!isDate(s)) throw errors.badRequest(`${name} is not a date`);
      return s;
    }
    case T.URL: {
      const s = stringValue(name, value, LONG_MAX);
      if (!isUrl(s)) throw errors.badRequest(`${name} is not a URL`);
      return s;
    }
    case T.SELECT: {
      const s = stringValue(name, value, LONG_MAX);
      if (!Object.hasOwn(selectChoices(field), s)) throw errors.badRequest(`'${s}' is not a valid choice for '${name}'.`);
      return s;
    }
    case T.USER: {
      if (!Array.isArray(value)) throw errors.badRequest(`${name} is not a list`);
      const ids: number[] = [];
      value.forEach((x, i) => {
        if (typeof x !== 'number' || !Number.isSafeInteger(x)) throw errors.badRequest(`${name}[${i}] is not an integer`);
        const u = app.store.users.get(x);
        // Someone a restricted guest may not access is as unknown as nobody (lookup.ts).
        if (!u || (acting && !canAccessUser(app, acting, u))) throw errors.badRequest(`Invalid user ID: ${x}`);
        if (!u.is_active) throw errors.badRequest(`User with ID ${x} is deactivated`);
        if (u.is_bot) throw errors.badRequest(`User with ID ${x} is a bot`);
        if (!ids.includes(x)) ids.push(x);
      });
      return JSON.stringify(ids);
    }
    default:
      throw errors.badRequest('Invalid field type.');
  }
}

/** An empty value (`""` or `[]`) clears the field, like null. */
const isEmpty = (v: unknown) => v === null || v === '' || (Array.isArray(v) && v.length === 0);

/**
 * Resolves and validates `[{id, value}]` for `acting` editing `target`'s profile:
 * unknown IDs name the field; fields not editable by users need an administrator.
 */
export function resolveProfileChanges(
  app: App,
  acting: UserRecord,
  items: { id: number; value: unknown }[],
): { field: ProfileFieldRecord; stored: { value: string; rendered_value?: string } | null }[] {
  return items.map((item) => {
    const field = fieldById(app, item.id);
    if (!field) throw errors.badRequest(`Field id ${item.id} not found.`);
    if (!field.editable_by_user && !isAdmin(acting)) {
      throw errors.badRequest('You are not allowed to change this field. Contact an administrator to update it.');
    }
    if (isEmpty(item.value)) return { field, stored: null };
    const value = validateFieldValue(app, field, item.value, acting);
    if (!isRenderable(field.type)) return { field, stored: { value } };
    // Markdown as the editor sees the organization (channel links resolve for them).
    return { field, stored: { value, rendered_value: renderPlainDescription(value, renderContextFor(app, acting.id)) } };
  });
}

/** The `custom_profile_field` payload of a `realm_user` update. */
export function profileFieldEventValue(
  field: ProfileFieldRecord,
  stored: { value: string; rendered_value?: string } | null,
): Record<string, unknown> {
  if (!stored) return { id: field.id, value: null };
  return isRenderable(field.type) ? { id: field.id, ...stored } : { id: field.id, value: stored.value };
}
