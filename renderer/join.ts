/**
 * The page an invite link opens (/join/<key>/ redirects here with the key in
 * the fragment): a colleague creates their own account (`POST /json/hearth/join`,
 * which also signs this browser in to the chat with a session cookie), then is
 * offered the chat and learns how to connect a Zulip app. Talks to the server's
 * HTTP API only.
 */
import { Api, type ServerSettings } from './admin-api.js';
import { Notice, busy, errorText, field, h } from './dom.js';
import { qrCanvas } from './qr.js';

const MIN_PASSWORD = 8;

function joinForm(api: Api, key: string, realmName: string): HTMLElement {
  const notice = new Notice();
  const name = h('input', { name: 'full_name', required: true, autocomplete: 'name', maxlength: 100 });
  const email = h('input', { name: 'email', type: 'email', required: true, autocomplete: 'email' });
  const password = h('input', { name: 'password', type: 'password', required: true, minlength: MIN_PASSWORD, autocomplete: 'new-password' });
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'join-title' },
    h('h1', { id: 'join-title' }, `Join ${realmName}`),
    h('p', {}, 'You were invited to this team chat. Create your account:'),
    field('Your name', name),
    field('Email', email, 'Your login; it does not need to receive mail.'),
    field('Password', password, `At least ${MIN_PASSWORD} characters.`),
    notice.el,
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Create my account')),
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void busy(form, notice, async () => {
      const res = await api.post<{ email: string; realm_url: string }>('/hearth/join', { key, full_name: name.value.trim(), email: email.value.trim(), password: password.value });
      form.replaceWith(welcome(String(res.email), String(res.realm_url)));
    });
  });
  return form;
}

function welcome(email: string, url: string): HTMLElement {
  const apps = h(
    'div',
    { class: 'apps' },
    h('h2', {}, 'On your phone or desktop'),
    h('p', {}, 'Install a Zulip app, choose "Add an organization" and enter this server URL, then sign in with your email and password:'),
    h('p', {}, h('code', { class: 'server-url' }, url)),
    h('p', {}, `Email: ${email}`),
  );
  const card = h(
    'section',
    { class: 'card', 'aria-labelledby': 'welcome-title' },
    h('h1', { id: 'welcome-title' }, 'Your account is ready'),
    h('p', {}, 'You are signed in. Chat in this browser:'),
    h('p', { class: 'actions' }, h('a', { href: '/', class: 'button' }, 'Open the chat')),
    apps,
  );
  qrCanvas(url).then(
    (c) => apps.append(c),
    () => undefined,
  );
  return card;
}

/**
 * On plain HTTP with HTTPS available: the trust page first, then the same invite over HTTPS,
 * so the new password never crosses the network in clear text.
 */
function secureFirst(key: string, httpsPort: unknown): HTMLElement[] {
  if (location.protocol !== 'http:' || typeof httpsPort !== 'number') return [];
  const host = location.hostname.includes(':') ? `[${location.hostname}]` : location.hostname;
  const secure = `https://${host}:${httpsPort}/join/${key}/`;
  return [
    h(
      'section',
      { class: 'notice notice-info', 'aria-label': 'Connection not encrypted' },
      h('p', {}, h('strong', {}, 'This connection is not encrypted.'), ' Before you choose a password: ', h('a', { href: '/hearth/trust' }, 'trust this server'), ' on this device (once), then open the secure invite link:'),
      h('p', {}, h('a', { href: secure }, secure)),
    ),
  ];
}

async function main(): Promise<void> {
  const mainEl = document.getElementById('main')!;
  const key = location.hash.slice(1);
  const api = new Api();
  if (!/^[a-z0-9]{1,64}$/.test(key)) {
    mainEl.replaceChildren(h('p', { class: 'notice notice-error', role: 'alert' }, 'This invite link is incomplete. Copy the whole link and open it again.'));
    return;
  }
  try {
    const settings = await api.get<ServerSettings>('/server_settings');
    mainEl.replaceChildren(...secureFirst(key, settings.hearth_https_port), joinForm(api, key, String(settings.realm_name ?? 'the team')));
  } catch (err) {
    mainEl.replaceChildren(h('p', { class: 'notice notice-error', role: 'alert' }, `Could not reach the server: ${errorText(err)}`));
  }
}

void main();
