/**
 * First-run setup: organization and owner (`POST /json/hearth/setup`, no session needed), then
 * the owner is signed in with the password just chosen (`POST /json/login`: the admin's and
 * the chat's session), then how people connect.
 */
import { type Api, ApiError } from './admin-api.js';
import { Notice, busy, field, h } from './dom.js';
import { connectList } from './qr.js';

export function setupPage(api: Api, setupToken: string | null, tokenRequired: boolean, done: () => void): HTMLElement {
  const notice = new Notice();
  const realm = h('input', { name: 'realm_name', required: true, maxlength: 40, autocomplete: 'organization' });
  const name = h('input', { name: 'full_name', required: true, maxlength: 100, autocomplete: 'name' });
  const email = h('input', { name: 'email', type: 'email', required: true, autocomplete: 'email' });
  const password = h('input', { name: 'password', type: 'password', required: true, minlength: 8, autocomplete: 'new-password' });
  const confirm = h('input', { name: 'password_confirm', type: 'password', required: true, autocomplete: 'new-password' });
  const token = h('input', { name: 'setup_token', autocomplete: 'off', required: true });
  let urlToken = setupToken;
  const tokenField = field('Setup token', token, 'Printed by hearth serve in its terminal (the desktop app passes it for you): setup from another computer needs it.');
  // Shown when needed: from another computer without a token in the address, or after a stale one was refused.
  const showToken = (show: boolean) => {
    tokenField.hidden = !show;
    token.required = show;
  };
  showToken(tokenRequired && !urlToken);
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'setup-title' },
    h('h1', { id: 'setup-title' }, 'Set up Hearth'),
    h('p', {}, 'Create your organization and its owner account. You can change everything later.'),
    field('Organization name', realm),
    field('Your name', name),
    field('Your email', email, 'You sign in with this address.'),
    field('Password', password, 'At least 8 characters.'),
    field('Confirm password', confirm),
    tokenField,
    notice.el,
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Create organization')),
  );
  const page = h('main', { id: 'main', class: 'narrow' }, form);
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    notice.clear();
    if (password.value !== confirm.value) {
      notice.show('error', 'The passwords do not match.');
      confirm.focus();
      return;
    }
    void busy(form, notice, async () => {
      const res = await api
        .post<{ lan_urls: string[] }>('/hearth/setup', {
          realm_name: realm.value,
          full_name: name.value,
          email: email.value,
          password: password.value,
          setup_token: urlToken ?? (tokenField.hidden ? undefined : token.value),
        })
        .catch((err: unknown) => {
          if (err instanceof ApiError && err.code === 'SETUP_TOKEN_REQUIRED') {
            urlToken = null;
            showToken(true);
          }
          throw err;
        });
      // The answer also carries the owner's API key (for scripts): the page does not keep it.
      const lanUrls = res.lan_urls;
      // Should this fail, the organization still exists: "Continue" then shows the sign-in page.
      await api.signIn(email.value.trim(), password.value).catch(() => undefined);
      password.value = '';
      confirm.value = '';
      page.replaceChildren(connectedPage(lanUrls, done));
      page.querySelector('h1')?.focus();
    });
  });
  return page;
}

function connectedPage(urls: string[], done: () => void): HTMLElement {
  const next = h('button', { type: 'button' }, 'Continue to administration');
  next.addEventListener('click', done);
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'connect-title' },
    h('h1', { id: 'connect-title', tabindex: -1 }, 'Your organization is ready'),
    connectList(urls),
    h('div', { class: 'actions' }, next, h('a', { href: '/', class: 'button secondary' }, 'Open the chat')),
  );
}
