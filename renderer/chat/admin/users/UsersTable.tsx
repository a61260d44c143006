/** The people (not bots) of the organization, searched by name or email: role, status and actions per row. */
import { useEffect, useState } from 'preact/hooks';
import type { User } from '../../../../server/protocol/user.js';
import { BusyButton } from '../../ui/BusyButton.js';
import { useBusy } from '../../ui/busy.js';
import { errorText, type SetNotice } from '../../ui/Notice.js';
import { del, patch, post, ROLES, roleName } from '../api.js';
import { PeopleTable } from './PeopleTable.js';

interface RowActions {
  setNotice: SetNotice;
  reload: () => Promise<void>;
  roleSaved: (id: number, role: number) => void;
  resetPassword: (user: User, from: HTMLElement) => void;
}

const COLUMNS = ['Name', 'Email', 'Role', 'Status', 'Actions'];

export function UsersTable({ members, query, ...actions }: { members: readonly User[]; query: string } & RowActions) {
  const q = query.trim().toLowerCase();
  const humans = members
    .filter((u) => !u.is_bot)
    .filter((u) => !q || `${u.full_name} ${u.delivery_email ?? ''} ${u.email}`.toLowerCase().includes(q))
    .sort((a, b) => Number(b.is_active) - Number(a.is_active) || a.full_name.localeCompare(b.full_name));
  if (!humans.length) return <p class="empty">{q ? 'No user matches the search.' : 'No users yet.'}</p>;
  return (
    <PeopleTable label="Users list" name="Users" columns={COLUMNS}>
      {humans.map((u) => (
        <UserRow key={u.user_id} user={u} {...actions} />
      ))}
    </PeopleTable>
  );
}

function UserRow({ user: u, setNotice, reload, roleSaved, resetPassword }: { user: User } & RowActions) {
  const [wanted, setWanted] = useState(u.role);
  useEffect(() => setWanted(u.role), [u.role]);
  const [savingRole, runSaveRole] = useBusy(setNotice);
  const [toggling, runToggle] = useBusy(setNotice);

  const saveRole = () => {
    setNotice(null);
    void runSaveRole(async () => {
      try {
        await patch(`/users/${u.user_id}`, { role: wanted });
      } catch (err) {
        setWanted(u.role);
        throw new Error(`Could not change the role of ${u.full_name}: ${errorText(err)}`);
      }
      roleSaved(u.user_id, wanted);
      setNotice({ kind: 'ok', text: `${u.full_name} is now ${roleName(wanted).toLowerCase()}.` });
    });
  };

  const toggle = () => {
    setNotice(null);
    if (u.is_active && !confirm(`Deactivate ${u.full_name}? They are signed out everywhere and cannot sign in.`)) return;
    void runToggle(async () => {
      if (u.is_active) await del(`/users/${u.user_id}`);
      else await post(`/users/${u.user_id}/reactivate`);
      setNotice({ kind: 'ok', text: `${u.full_name} was ${u.is_active ? 'deactivated' : 'reactivated'}.` });
      await reload();
    });
  };

  return (
    <tr class={u.is_active ? undefined : 'inactive'} data-user-id={u.user_id}>
      <td>{u.full_name}</td>
      <td>{u.delivery_email ?? u.email}</td>
      <td>
        <div class="role-cell">
          <select aria-label={`Role of ${u.full_name}`} disabled={!u.is_active} value={String(wanted)} onChange={(e) => setWanted(Number(e.currentTarget.value))}>
            {ROLES.map((r) => (
              <option key={r.id} value={String(r.id)}>
                {r.name}
              </option>
            ))}
          </select>
          {/* A separate button: arrowing through a closed <select> fires `change` on every step. */}
          {wanted !== u.role && (
            <BusyButton class="secondary small" aria-label={`Save the role of ${u.full_name}`} busy={savingRole} onClick={saveRole}>
              Save
            </BusyButton>
          )}
        </div>
      </td>
      <td>{u.is_active ? 'Active' : 'Deactivated'}</td>
      <td>
        <div class="row-actions">
          <button type="button" class="secondary" disabled={!u.is_active} onClick={(e) => resetPassword(u, e.currentTarget)}>
            Reset password
          </button>
          <BusyButton class="secondary" busy={toggling} onClick={toggle}>
            {u.is_active ? 'Deactivate' : 'Reactivate'}
          </BusyButton>
        </div>
      </td>
    </tr>
  );
}
