/**
 * Sign-in for administrators: email + password through `POST /json/login`, which sets the
 * session cookie (the chat's too). Whether the person may administer is checked by app.ts
 * after; someone signed in who may not (`notAdmin`: their email) is told so, offered the
 * chat, and may sign in here as another account.
 */
import type { Api, ServerSettings } from './admin-api.js';
import { Notice, busy, field, h, safeHtml } from './dom.js';

export function signInPage(api: Api, settings: ServerSettings | null, notAdmin: string | null, done: () => void): HTMLElement {
  const notice = new Notice();
  const email = h('input', { name: 'username', type: 'email', required: true, autocomplete: 'username' });
  const password = h('input', { name: 'password', type: 'password', required: true, autocomplete: 'current-password' });
  const realmName = typeof settings?.realm_name === 'string' ? settings.realm_name : 'Hearth';
  const description = h('div', { class: 'realm-description' });
  if (typeof settings?.realm_description === 'string') description.append(safeHtml(settings.realm_description));
  const icon = typeof settings?.realm_icon === 'string' ? h('img', { src: settings.realm_icon, alt: '', class: 'realm-icon' }) : null;
  const signedInElsewhere = notAdmin
    ? h(
        'div',
        { class: 'not-admin' },
        h('p', { class: 'notice notice-error', role: 'alert' }, 'This account is not an organization administrator.'),
        h('p', {}, `You are signed in as ${notAdmin}. Open the chat, or sign in below with an owner or administrator account.`),
        h('p', { class: 'actions' }, h('a', { href: '/', class: 'button' }, 'Open the chat')),
      )
    : null;
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'signin-title' },
    h('div', { class: 'brand' }, icon, h('h1', { id: 'signin-title' }, `Sign in to ${realmName}`)),
    description,
    signedInElsewhere ?? h('p', {}, 'Administration is for organization owners and administrators.'),
    field('Email', email),
    field('Password', password),
    notice.el,
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Sign in')),
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    notice.clear();
    void busy(form, notice, async () => {
      await api.signIn(email.value, password.value);
      password.value = '';
      done();
    });
  });
  queueMicrotask(() => email.focus());
  return h('main', { id: 'main', class: 'narrow' }, form);
}
