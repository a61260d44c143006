/** Users and bots: list and search people, create, change role, deactivate/reactivate, reset password, invite links. */
import type { User } from '../server/protocol/user.js';
import { type Api, ROLES, roleName } from './admin-api.js';
import { botsSection } from './bots.js';
import { invitesSection } from './invites.js';
import { Notice, busy, dialog, errorText, field, h, loading, tableBox } from './dom.js';

export function usersPage(api: Api): HTMLElement {
  const notice = new Notice();
  const search = h('input', { type: 'search', placeholder: 'Name or email', autocomplete: 'off' });
  const body = h('div', {}, loading('users'));
  const add = h('button', { type: 'button' }, 'Add user');
  const people = h(
    'section',
    { 'aria-labelledby': 'people-title' },
    h('div', { class: 'section-head' }, h('h1', { id: 'people-title' }, 'Users'), add),
    h('div', { class: 'toolbar' }, field('Search users', search)),
    notice.el,
    body,
  );
  const bots = h('div', {});
  let members: User[] = [];

  const render = () => {
    const q = search.value.trim().toLowerCase();
    const humans = members
      .filter((u) => !u.is_bot)
      .filter((u) => !q || `${u.full_name} ${u.delivery_email ?? ''} ${u.email}`.toLowerCase().includes(q))
      .sort((a, b) => Number(b.is_active) - Number(a.is_active) || a.full_name.localeCompare(b.full_name));
    if (!humans.length) {
      body.replaceChildren(h('p', { class: 'empty' }, q ? 'No user matches the search.' : 'No users yet.'));
      return;
    }
    body.replaceChildren(
      tableBox(
        'Users list',
        h(
          'table',
          { class: 'list', 'aria-label': 'Users' },
          h('thead', {}, h('tr', {}, ['Name', 'Email', 'Role', 'Status', 'Actions'].map((t) => h('th', { scope: 'col' }, t)))),
          h('tbody', {}, humans.map((u) => userRow(api, u, notice, reload))),
        ),
      ),
    );
  };

  const reload = async () => {
    try {
      const res = await api.get<{ members: User[] }>('/users', { client_gravatar: false });
      members = res.members;
      render();
      bots.replaceChildren(botsSection(api, members, reload));
    } catch (err) {
      body.replaceChildren(h('p', { class: 'notice notice-error', role: 'alert' }, `Could not load users: ${errorText(err)}`));
    }
  };

  search.addEventListener('input', render);
  add.addEventListener('click', () => addUserDialog(api, notice, reload));
  void reload();
  return h('div', { class: 'page' }, people, invitesSection(api), bots);
}

function userRow(api: Api, u: User, notice: Notice, reload: () => Promise<void>): HTMLTableRowElement {
  const role = h('select', { 'aria-label': `Role of ${u.full_name}`, disabled: !u.is_active });
  for (const r of ROLES) role.append(h('option', { value: r.id, selected: r.id === u.role }, r.name));
  // A separate button: arrowing through a closed <select> fires `change` on every step.
  const saveRole = h('button', { type: 'button', class: 'secondary small', hidden: true, 'aria-label': `Save the role of ${u.full_name}` }, 'Save');
  role.addEventListener('change', () => (saveRole.hidden = Number(role.value) === u.role));
  saveRole.addEventListener('click', () => {
    const wanted = Number(role.value);
    notice.clear();
    void busy(saveRole, notice, async () => {
      try {
        await api.patch(`/users/${u.user_id}`, { role: wanted });
      } catch (err) {
        role.value = String(u.role);
        saveRole.hidden = true;
        throw new Error(`Could not change the role of ${u.full_name}: ${errorText(err)}`);
      }
      u.role = wanted;
      saveRole.hidden = true;
      notice.show('ok', `${u.full_name} is now ${roleName(wanted).toLowerCase()}.`);
    });
  });

  const toggle = h('button', { type: 'button', class: 'secondary' }, u.is_active ? 'Deactivate' : 'Reactivate');
  toggle.addEventListener('click', () => {
    notice.clear();
    if (u.is_active && !confirm(`Deactivate ${u.full_name}? They are signed out everywhere and cannot sign in.`)) return;
    void busy(toggle, notice, async () => {
      if (u.is_active) await api.delete(`/users/${u.user_id}`);
      else await api.post(`/users/${u.user_id}/reactivate`);
      notice.show('ok', `${u.full_name} was ${u.is_active ? 'deactivated' : 'reactivated'}.`);
      await reload();
    });
  });

  const reset = h('button', { type: 'button', class: 'secondary', disabled: !u.is_active }, 'Reset password');
  reset.addEventListener('click', () => resetPasswordDialog(api, u, notice));

  return h(
    'tr',
    { class: u.is_active ? '' : 'inactive', 'data-user-id': u.user_id },
    h('td', {}, u.full_name),
    h('td', {}, u.delivery_email ?? u.email),
    h('td', {}, h('div', { class: 'role-cell' }, role, saveRole)),
    h('td', {}, u.is_active ? 'Active' : 'Deactivated'),
    h('td', {}, h('div', { class: 'row-actions' }, reset, toggle)),
  );
}

function addUserDialog(api: Api, notice: Notice, reload: () => Promise<void>): void {
  const name = h('input', { name: 'full_name', required: true, maxlength: 100, autocomplete: 'off' });
  const email = h('input', { name: 'email', type: 'email', required: true, autocomplete: 'off' });
  const password = h('input', { name: 'password', type: 'password', required: true, minlength: 8, autocomplete: 'new-password' });
  dialog(
    'Add user',
    [field('Full name', name), field('Email', email), field('Initial password', password, 'Share it with them; they can change it.')],
    'Create user',
    async () => {
      await api.post('/users', { full_name: name.value, email: email.value, password: password.value });
      notice.show('ok', `${name.value} can now sign in as ${email.value}.`);
      await reload();
      return true;
    },
  );
}

function resetPasswordDialog(api: Api, u: User, notice: Notice): void {
  const password = h('input', { name: 'new_password', type: 'password', required: true, minlength: 8, autocomplete: 'new-password' });
  dialog(`Reset the password of ${u.full_name}`, [field('New password', password, 'At least 8 characters.')], 'Set password', async () => {
    await api.post(`/hearth/users/${u.user_id}/password`, { new_password: password.value });
    notice.show('ok', `The password of ${u.full_name} was changed.`);
    return true;
  });
}
