/**
 * The admin UI's entry point: first-run setup when the server has no organization, sign-in
 * when there are no (working) credentials, else the pages (hash routes #users, #settings, #status).
 */
import { Api, type Json, loadCredentials, saveCredentials } from './api.js';
import { errorText, h, loading } from './dom.js';
import { settingsPage } from './settings.js';
import { setupPage } from './setup.js';
import { signInPage } from './signin.js';
import { statusPage } from './status.js';
import { usersPage } from './users.js';

const PAGES: { route: string; title: string; render: (api: Api) => HTMLElement }[] = [
  { route: 'users', title: 'Users and bots', render: usersPage },
  { route: 'settings', title: 'Settings', render: settingsPage },
  { route: 'status', title: 'Status', render: statusPage },
];

const root = document.getElementById('app')!;
const api = new Api(loadCredentials());

/** The one-time setup token: `#setup_token=` (the desktop window) or `?setup_token=`; removed from the address bar. */
function takeSetupToken(): string | null {
  const hash = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  const token = hash.get('setup_token') ?? query.get('setup_token');
  if (token) history.replaceState(null, '', location.pathname);
  return token;
}
let setupToken = takeSetupToken();

function show(el: HTMLElement): void {
  root.replaceChildren(el);
}

function signOut(): void {
  saveCredentials(null);
  api.credentials = null;
  void start();
}

api.onUnauthorized = () => {
  saveCredentials(null);
  api.credentials = null;
  void start();
};

function shell(route: string): HTMLElement {
  const page = PAGES.find((p) => p.route === route) ?? PAGES[0]!;
  document.title = `${page.title} · Hearth admin`;
  const nav = h(
    'nav',
    { 'aria-label': 'Admin sections' },
    h(
      'ul',
      {},
      PAGES.map((p) =>
        h('li', {}, h('a', { href: `#${p.route}`, 'aria-current': p === page ? 'page' : null }, p.title)),
      ),
    ),
  );
  const out = h('button', { type: 'button', class: 'secondary' }, 'Sign out');
  out.addEventListener('click', signOut);
  const who = api.credentials?.email ?? '';
  const main = h('main', { id: 'main', tabindex: -1 }, page.render(api));
  const skip = h('a', { href: '#main', class: 'skip' }, 'Skip to content');
  skip.addEventListener('click', (ev) => {
    ev.preventDefault();
    main.focus();
  });
  const header = h(
    'header',
    { class: 'topbar' },
    skip,
    h('span', { class: 'logo' }, 'Hearth admin'),
    nav,
    h('span', { class: 'who' }, who),
    out,
  );
  return h('div', { class: 'layout' }, header, main);
}

function route(): string {
  return location.hash.replace(/^#/, '') || 'users';
}

async function start(): Promise<void> {
  show(h('main', { id: 'main', class: 'narrow' }, loading('Hearth')));
  let setup: Json;
  try {
    setup = await api.get('/hearth/setup');
  } catch (err) {
    show(h('main', { id: 'main', class: 'narrow' }, h('p', { class: 'notice notice-error', role: 'alert' }, errorText(err))));
    return;
  }
  if (setup.needs_setup) {
    document.title = 'Set up Hearth';
    show(setupPage(api, setupToken, Boolean(setup.setup_token_required), () => {
      location.hash = 'users';
      void start();
    }));
    return;
  }
  if (!api.credentials) {
    document.title = 'Sign in · Hearth admin';
    const settings = await api.get('/server_settings').catch(() => null);
    show(signInPage(api, settings, () => void start()));
    return;
  }
  show(shell(route()));
}

window.addEventListener('hashchange', () => {
  if (location.hash.includes('setup_token=')) {
    setupToken = takeSetupToken();
    void start();
    return;
  }
  if (api.credentials && root.querySelector('.layout')) {
    show(shell(route()));
    (document.getElementById('main') as HTMLElement | null)?.focus();
  }
});

void start();
