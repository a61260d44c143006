/**
 * Users and bots: list and search people, create, change role, deactivate/reactivate, reset
 * password (UsersTable.tsx, UserDialogs.tsx); invite links (Invites.tsx); bots (Bots.tsx).
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { User } from '../../../../server/protocol/user.js';
import { Field } from '../../ui/Field.js';
import { errorText, Notice, useNotice } from '../../ui/Notice.js';
import { Loading } from '../../ui/TableBox.js';
import { get } from '../api.js';
import { Bots } from './Bots.js';
import { useDialog } from './dialog-state.js';
import { Invites } from './Invites.js';
import { SectionHead } from './PeopleTable.js';
import { AddUserDialog, ResetPasswordDialog } from './UserDialogs.js';
import { UsersTable } from './UsersTable.js';

/** The dialogs of the Users section. */
export type UserDialog = { kind: 'add' } | { kind: 'reset'; user: User };

export function UsersPage() {
  const [members, setMembers] = useState<User[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [notice, setNotice] = useNotice();
  const dialog = useDialog<UserDialog>();

  const reload = useCallback(async () => {
    try {
      const res = await get<{ members: User[] }>('/users', { client_gravatar: false });
      setMembers(res.members);
      setLoadError(null);
    } catch (err) {
      setLoadError(`Could not load users: ${errorText(err)}`);
    }
  }, []);
  useEffect(() => void reload(), [reload]);

  /** A role the server accepted, kept without asking for the whole list again. */
  const roleSaved = useCallback((id: number, role: number) => setMembers((all) => all && all.map((u) => (u.user_id === id ? { ...u, role } : u))), []);

  const open = dialog.open;
  return (
    <>
      <section aria-labelledby="people-title">
        <SectionHead id="people-title" title="Users" add="Add user" onAdd={(from) => dialog.show({ kind: 'add' }, from)} />
        <div class="toolbar">
          <Field label="Search users">
            {(ids) => <input {...ids} type="search" placeholder="Name or email" autocomplete="off" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />}
          </Field>
        </div>
        <Notice notice={notice} />
        {loadError ? (
          <p class="notice notice-error" role="alert">
            {loadError}
          </p>
        ) : members ? (
          <UsersTable
            members={members}
            query={query}
            setNotice={setNotice}
            reload={reload}
            roleSaved={roleSaved}
            resetPassword={(user, from) => dialog.show({ kind: 'reset', user }, from)}
          />
        ) : (
          <Loading what="users" />
        )}
      </section>
      <Invites />
      {members && <Bots members={members} reload={reload} />}
      {open?.kind === 'add' && <AddUserDialog setNotice={setNotice} reload={reload} onClose={() => dialog.close()} />}
      {open?.kind === 'reset' && <ResetPasswordDialog user={open.user} setNotice={setNotice} onClose={() => dialog.close()} />}
    </>
  );
}
