/**
 * Custom profile fields of the organization: create, update, delete, reorder.
 * Each change sends `custom_profile_fields` with the whole list to everyone.
 */
import type { App } from '../context.js';
import { activeUsers } from '../lib/people/people.js';
import { listProfileFields, selectChoices } from '../lib/people/profile-fields.js';
import { PROFILE_FIELD_TYPE, type ProfileFieldRecord } from '../store/records.js';
import { commit, type Transaction } from './commit.js';
import { emitUserUpdate } from './users.js';

function announce(app: App, tx: Transaction): void {
  tx.touch(app.store.profileFields);
  tx.emit({ type: 'custom_profile_fields', fields: listProfileFields(app) }, activeUsers(app).map((u) => u.id));
}

export async function doCreateProfileField(app: App, fields: Omit<ProfileFieldRecord, 'id' | 'order'>): Promise<ProfileFieldRecord> {
  return commit(app, (tx) => {
    const doc = app.store.profileFields.data;
    const order = Math.max(0, ...doc.fields.map((f) => f.order + 1));
    const field: ProfileFieldRecord = { id: doc.nextId++, order, ...fields };
    doc.fields.push(field);
    announce(app, tx);
    return field;
  });
}

export type ProfileFieldChanges = Partial<
  Pick<ProfileFieldRecord, 'name' | 'hint' | 'field_data' | 'display_in_profile_summary' | 'required' | 'editable_by_user' | 'use_for_user_matching'>
>;

/**
 * Updates a field. A dropdown that loses a choice also loses the values that
 * picked it (each owner's clients hear `realm_user` update with value null).
 */
export async function doUpdateProfileField(app: App, field: ProfileFieldRecord, ch: ProfileFieldChanges): Promise<void> {
  await commit(app, (tx) => {
    Object.assign(field, ch);
    if (field.type === PROFILE_FIELD_TYPE.SELECT && ch.field_data !== undefined) {
      const choices = selectChoices(field);
      const key = String(field.id);
      for (const u of app.store.users.all()) {
        const current = u.profile_data?.[key];
        if (current && !(current.value in choices)) {
          delete u.profile_data![key];
          tx.touch(app.store.users.collection);
          emitUserUpdate(app, tx, u, { custom_profile_field: { id: field.id, value: null } });
        }
      }
    }
    announce(app, tx);
  });
}

/** Deletes a field and every value of it (clients drop the field's values with the field). */
export async function doDeleteProfileField(app: App, field: ProfileFieldRecord): Promise<void> {
  await commit(app, (tx) => {
    const doc = app.store.profileFields.data;
    doc.fields = doc.fields.filter((f) => f.id !== field.id);
    const key = String(field.id);
    for (const u of app.store.users.all()) {
      if (u.profile_data && key in u.profile_data) {
        delete u.profile_data[key];
        tx.touch(app.store.users.collection);
      }
    }
    announce(app, tx);
  });
}

/** Sets `order` from the position of each field's ID in `order`. */
export async function doReorderProfileFields(app: App, order: number[]): Promise<void> {
  await commit(app, (tx) => {
    for (const f of app.store.profileFields.data.fields) f.order = order.indexOf(f.id);
    announce(app, tx);
  });
}
