/** Sign-in for administrators: email + password through `fetch_api_key`. */
import { type Api, type Json, saveCredentials } from './api.js';
import { Notice, busy, field, h, safeHtml } from './dom.js';

export function signInPage(api: Api, settings: Json | null, done: () => void): HTMLElement {
  const notice = new Notice();
  const email = h('input', { name: 'username', type: 'email', required: true, autocomplete: 'username' });
  const password = h('input', { name: 'password', type: 'password', required: true, autocomplete: 'current-password' });
  const realmName = typeof settings?.realm_name === 'string' ? settings.realm_name : 'Hearth';
  const description = h('div', { class: 'realm-description' });
  if (typeof settings?.realm_description === 'string') description.append(safeHtml(settings.realm_description));
  const icon = typeof settings?.realm_icon === 'string' ? h('img', { src: settings.realm_icon, alt: '', class: 'realm-icon' }) : null;
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'signin-title' },
    h('div', { class: 'brand' }, icon, h('h1', { id: 'signin-title' }, `Sign in to ${realmName}`)),
    description,
    h('p', {}, 'Administration is for organization owners and administrators.'),
    field('Email', email),
    field('Password', password),
    notice.el,
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Sign in')),
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    notice.clear();
    void busy(form, notice, async () => {
      const res = await api.post('/fetch_api_key', { username: email.value, password: password.value });
      const creds = { email: res.email as string, api_key: res.api_key as string, user_id: res.user_id as number };
      api.credentials = creds;
      const me = await api.get('/users/me');
      if (!(me.role <= 200)) {
        api.credentials = null;
        throw new Error('This account is not an organization administrator.');
      }
      saveCredentials(creds);
      password.value = '';
      done();
    });
  });
  queueMicrotask(() => email.focus());
  return h('main', { id: 'main', class: 'narrow' }, form);
}
