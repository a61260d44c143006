/**
 * Custom profile fields: GET/POST/PATCH(reorder) /realm/profile_fields,
 * PATCH/DELETE /realm/profile_fields/{id}, PATCH/DELETE /users/me/profile_data.
 */
import {
  doCreateProfileField,
  doDeleteProfileField,
  doReorderProfileFields,
  doUpdateProfileField,
  type ProfileFieldChanges,
} from '../actions/profile-fields.js';
import { doUpdateProfileData } from '../actions/users-update.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { v, type Validator } from '../params/validate.js';
import { isAdmin } from '../lib/people/people.js';
import { resolveProfileChanges } from '../lib/people/profile-field-values.js';
import {
  DEFAULT_EXTERNAL_ACCOUNTS,
  fieldById,
  isDefaultExternal,
  listProfileFields,
  storedFieldData,
  validateDefinition,
  type FieldData,
} from '../lib/people/profile-fields.js';
import { pathInt } from './common.js';
import { requireAdmin } from '../lib/people/require.js';
import { requireHuman } from '../lib/people/require.js';
import { requireUser } from '../lib/people/require.js';
import { own } from '../lib/own.js';

/** `field_data`: a dict whose values are strings or dicts of strings (Zulip's check_profile_field_data). */
const fieldDataValidator: Validator<FieldData> = v.record((x: unknown, p: string) =>
  typeof x === 'string' ? x : v.record(v.str)(x, p),
);

/** GET /realm/profile_fields: every field, in display order. */
export function listFields(req: ApiRequest): ViewResult {
  requireUser(req);
  return { custom_fields: listProfileFields(req.app) };
}

/** POST /realm/profile_fields (administrators). */
export async function createField(req: ApiRequest): Promise<ViewResult> {
  requireAdmin(req);
  const { params, app } = req;
  const type = params.require('field_type', t.int);
  let name = params.get('name', t.string, '').trim();
  let hint = params.get('hint', t.string, '');
  const fieldData = params.get('field_data', t.json(fieldDataValidator), {});
  const display = params.get('display_in_profile_summary', t.bool, false);
  const required = params.get('required', t.bool, false);
  const editable = params.get('editable_by_user', t.bool, true);
  const matching = params.get('use_for_user_matching', t.bool, false);
  validateDefinition(app, { name, hint, type, fieldData, displayInProfileSummary: display }, null);
  if (isDefaultExternal(type, fieldData)) {
    const preset = own(DEFAULT_EXTERNAL_ACCOUNTS, fieldData.subtype as string)!;
    name = preset.name;
    hint = preset.hint;
    validateDefinition(app, { name, hint, type, fieldData, displayInProfileSummary: display }, null);
  }
  const field = await doCreateProfileField(app, {
    type,
    name,
    hint,
    field_data: storedFieldData(type, fieldData),
    display_in_profile_summary: display,
    required,
    editable_by_user: editable,
    use_for_user_matching: matching,
  });
  return { id: field.id };
}

function requireField(req: ApiRequest) {
  const id = pathInt(req, 'field_id');
  const field = fieldById(req.app, id);
  if (!field) throw errors.badRequest(`Field id ${id} not found.`);
  return field;
}

/** PATCH /realm/profile_fields/{field_id} (administrators); the type never changes. */
export async function updateField(req: ApiRequest): Promise<ViewResult> {
  requireAdmin(req);
  const { params, app } = req;
  const field = requireField(req);
  const name = params.get('name', t.string)?.trim();
  const hint = params.get('hint', t.string);
  const fieldData = params.get('field_data', t.json(fieldDataValidator));
  const display = params.get('display_in_profile_summary', t.bool);
  const required = params.get('required', t.bool);
  const editable = params.get('editable_by_user', t.bool);
  const matching = params.get('use_for_user_matching', t.bool);
  const storedData = field.field_data ? (JSON.parse(field.field_data) as FieldData) : {};
  if (isDefaultExternal(field.type, storedData)) {
    const changed =
      (name !== undefined && name !== field.name) ||
      (hint !== undefined && hint !== field.hint) ||
      (fieldData !== undefined && JSON.stringify(fieldData) !== JSON.stringify(storedData));
    if (changed) throw errors.badRequest('Default custom field cannot be updated.');
  }
  validateDefinition(
    app,
    {
      name: name ?? field.name,
      hint: hint ?? field.hint,
      type: field.type,
      fieldData: fieldData ?? storedData,
      displayInProfileSummary: display ?? field.display_in_profile_summary,
    },
    field.id,
  );
  const ch: ProfileFieldChanges = {};
  if (name !== undefined) ch.name = name;
  if (hint !== undefined) ch.hint = hint;
  if (fieldData !== undefined) ch.field_data = storedFieldData(field.type, fieldData);
  if (display !== undefined) ch.display_in_profile_summary = display;
  if (required !== undefined) ch.required = required;
  if (editable !== undefined) ch.editable_by_user = editable;
  if (matching !== undefined) ch.use_for_user_matching = matching;
  await doUpdateProfileField(app, field, ch);
  return {};
}

/** DELETE /realm/profile_fields/{field_id} (administrators). */
export async function deleteField(req: ApiRequest): Promise<ViewResult> {
  requireAdmin(req);
  await doDeleteProfileField(req.app, requireField(req));
  return {};
}

/** PATCH /realm/profile_fields with `order`: every field's ID, once, in the new order. */
export async function reorderFields(req: ApiRequest): Promise<ViewResult> {
  requireAdmin(req);
  const order = req.params.require('order', t.json(v.list(v.int)));
  const ids = req.app.store.profileFields.data.fields.map((f) => f.id);
  if (order.length !== ids.length || new Set(order).size !== order.length || !ids.every((id) => order.includes(id))) {
    throw errors.badRequest('Invalid order mapping.');
  }
  await doReorderProfileFields(req.app, order);
  return {};
}

const dataItem = v.dict({
  id: v.int,
  value: (x: unknown, p: string) => (typeof x === 'string' ? x : v.list(v.int)(x, p)),
});

/** PATCH /users/me/profile_data: `data` items `{id, value}`; an empty value clears the field. */
export async function updateOwnProfileData(req: ApiRequest): Promise<ViewResult> {
  const user = requireHuman(req);
  const data = req.params.require('data', t.json(v.list(dataItem)));
  const changes = resolveProfileChanges(req.app, user, data);
  await doUpdateProfileData(req.app, user, changes);
  return {};
}

/**
 * DELETE /users/me/profile_data: `data` is a list of field IDs to clear. A field
 * users may not edit tells them to ask an administrator; an unknown ID is named.
 */
export async function deleteOwnProfileData(req: ApiRequest): Promise<ViewResult> {
  const user = requireHuman(req);
  const ids = req.params.require('data', t.json(v.list(v.int)));
  const changes = ids.map((id) => {
    const field = fieldById(req.app, id);
    if (!field) throw errors.badRequest(`Field id ${id} not found.`);
    if (!field.editable_by_user && !isAdmin(user)) {
      throw errors.badRequest('You are not allowed to change this field. Contact an administrator to update it.');
    }
    return { field, stored: null };
  });
  await doUpdateProfileData(req.app, user, changes);
  return {};
}
