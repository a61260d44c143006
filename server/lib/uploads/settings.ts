/**
 * The organization's upload limits an owner changes with `PATCH /realm` (entries of the settings
 * table in server/lib/realm/settings.ts); server/lib/uploads/limits.ts applies them.
 *
 * Owners only, not administrators: they bound how much of the server computer's disk the
 * organization's files may take, as the per-server switches do.
 */
import { errors } from '../../errors.js';
import { t } from '../../params/params.js';
import { define, type RealmSetting } from '../realm/setting-definition.js';
import { DEFAULT_UPLOAD_QUOTA_MIB, MAX_UPLOAD_QUOTA_MIB } from './limits.js';

/** Largest guest allowance an owner may set (1 TiB a day). */
const MAX_GUEST_MIB_PER_DAY = 1_048_576;

export const UPLOAD_SETTINGS: RealmSetting[] = [
  define<number | null>({
    // Zulip sets the quota per plan, never through the API; clients read it as
    // realm_upload_quota_mib (the uploads area's register section) and hear changes as Zulip
    // announces them (feature level 306): realm update_dict with `upload_quota_mib`.
    name: 'hearth_upload_quota_mib',
    type: { read: (raw, name) => (raw === 'null' ? null : t.int.read(raw, name)) },
    who: 'owner',
    stored: { in: 'settings', key: 'hearth_upload_quota_mib' },
    fallback: DEFAULT_UPLOAD_QUOTA_MIB,
    registerKey: null,
    event: 'update_dict',
    eventKey: 'upload_quota_mib',
    validate: (value) => {
      if (value !== null && (!Number.isInteger(value) || value < 0 || value > MAX_UPLOAD_QUOTA_MIB)) {
        throw errors.badRequest(`hearth_upload_quota_mib must be null (no quota) or 0 to ${MAX_UPLOAD_QUOTA_MIB} MiB`);
      }
      return value;
    },
  }),
  define<number>({
    // Hearth's own; never announced (clients have no such setting). GET /hearth/status shows it.
    name: 'hearth_guest_upload_mib_per_day',
    type: t.int,
    who: 'owner',
    stored: { in: 'settings', key: 'hearth_guest_upload_mib_per_day' },
    fallback: 100,
    current: (app) => app.store.realm.data.realm?.settings.hearth_guest_upload_mib_per_day ?? app.config.guestUploadMibPerDay,
    secret: true,
    validate: (value) => {
      if (!Number.isInteger(value) || value < 0 || value > MAX_GUEST_MIB_PER_DAY) {
        throw errors.badRequest(`hearth_guest_upload_mib_per_day must be 0 (guests upload nothing) to ${MAX_GUEST_MIB_PER_DAY} MiB`);
      }
      return value;
    },
  }),
];
