/** Builds `hearth-fixup.json` (fixup-file.ts) for an export from its snapshot and plan. */
import type { Snapshot } from './snapshot.js';
import { FIXUP_FORMAT, FIXUP_VERSION, NOT_RESTORED, type FixupFile } from './fixup-file.js';
import { importedTopicName, type RocketChatPlan } from './rocketchat-model.js';

const USER_FIELD = 6;

export function buildFixup(snap: Snapshot, plan: RocketChatPlan): FixupFile {
  const emailOf = new Map(snap.users.map((u) => [u.id, u.email]));
  const exportedChannels = new Set(plan.rooms.filter((r) => r.t !== 'd' && !r.prid).map((r) => r._id as string));
  const channels = snap.channels.filter((c) => exportedChannels.has(`c${c.id}`));
  const roomName = new Map(plan.rooms.map((r) => [r._id as string, r.name as string]));
  const folderName = new Map(snap.folders.map((f) => [f.id, f.name]));
  const fieldName = new Map(snap.profileFields.map((f) => [String(f.id), f]));
  const groupName = new Map(snap.groups.map((g) => [g.id, g]));
  const humans = snap.users.filter((u) => !u.is_bot);

  const profileValues: FixupFile['profile_values'] = [];
  for (const u of humans) {
    for (const [id, { value }] of Object.entries(u.profile_data ?? {})) {
      const field = fieldName.get(id);
      if (!field || value === '') continue;
      if (field.type === USER_FIELD) {
        let ids: unknown;
        try {
          ids = JSON.parse(value);
        } catch {
          continue;
        }
        const emails = Array.isArray(ids) ? ids.map((x) => emailOf.get(Number(x))).filter((e): e is string => !!e) : [];
        if (emails.length) profileValues.push({ email: u.email, field: field.name, value: emails });
      } else profileValues.push({ email: u.email, field: field.name, value });
    }
  }

  return {
    format: FIXUP_FORMAT,
    version: FIXUP_VERSION,
    exported_at: new Date(snap.taken).toISOString(),
    organization: { name: snap.realm.name, description: snap.realm.description },
    users: snap.users.map((u) => ({ email: u.email, full_name: u.full_name, role: u.role, is_active: u.is_active, is_bot: u.is_bot })),
    profile_fields: [...snap.profileFields]
      .sort((a, b) => a.order - b.order)
      .map((f) => ({
        name: f.name,
        hint: f.hint,
        field_type: f.type,
        field_data: f.field_data,
        display_in_profile_summary: f.display_in_profile_summary,
        required: f.required,
        editable_by_user: f.editable_by_user,
      })),
    profile_values: profileValues,
    channel_folders: snap.folders.filter((f) => !f.is_archived).sort((a, b) => a.order - b.order).map((f) => ({ name: f.name, description: f.description })),
    channels: channels.map((c) => ({
      name: c.name,
      description: c.description,
      folder: c.folder_id === null ? null : (folderName.get(c.folder_id) ?? null),
      is_archived: c.is_archived,
    })),
    groups: snap.groups
      .filter((g) => !g.is_system_group && !g.deactivated)
      .map((g) => ({
        name: g.name,
        description: g.description,
        members: g.members.map((id) => emailOf.get(id)).filter((e): e is string => !!e),
        subgroups: g.subgroups.map((id) => groupName.get(id)).filter((s) => s && !s.is_system_group && !s.deactivated).map((s) => s!.name),
      })),
    topics: plan.rooms
      .filter((r) => typeof r.prid === 'string')
      .map((r) => ({ channel: roomName.get(r.prid as string) ?? '', imported: importedTopicName(r.fname as string, r._id as string), topic: r.fname as string })),
    not_restored: NOT_RESTORED,
  };
}
