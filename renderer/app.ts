/**
 * The admin UI's entry point: first-run setup when the server has no organization, sign-in
 * when this browser has no (working) session or its person is not an owner or administrator,
 * else the pages (hash routes #users, #settings, #status). The session is the chat's too
 * (one cookie), so someone signed in at `/` is signed in here.
 */
import type { User } from '../server/protocol/user.js';
import { Api, type ServerSettings } from './admin-api.js';
import { errorText, h, loading } from './dom.js';
import { channelsPage } from './channels.js';
import { settingsPage } from './settings.js';
import { setupPage } from './setup.js';
import { signInPage } from './signin.js';
import { statusPage } from './status.js';
import { usersPage } from './users.js';

const PAGES: { route: string; title: string; render: (api: Api) => HTMLElement }[] = [
  { route: 'users', title: 'Users and bots', render: usersPage },
  { route: 'channels', title: 'Channels', render: channelsPage },
  { route: 'settings', title: 'Settings', render: settingsPage },
  { route: 'status', title: 'Status', render: statusPage },
];

/** Whether the server still needs its first-run setup (`GET /hearth/setup`). */
interface SetupState {
  needs_setup: boolean;
  setup_token_required?: boolean;
}

const root = document.getElementById('app')!;
const api = new Api();

/** The one-time setup token: `#setup_token=` (the desktop window) or `?setup_token=`; removed from the address bar. */
function takeSetupToken(): string | null {
  const hash = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  const token = hash.get('setup_token') ?? query.get('setup_token');
  if (token) history.replaceState(null, '', location.pathname);
  return token;
}
/** What the page keeps between starts: the one-time setup token, and which start is the latest. */
const createPageState = () => ({ setupToken: takeSetupToken(), generation: 0 });
const page = createPageState();

function show(el: HTMLElement): void {
  root.replaceChildren(el);
}

/** Sign out: the session ends on the server (for the chat in this browser too). */
function signOut(button: HTMLButtonElement): void {
  button.disabled = true;
  api.signOut().then(
    () => void start(false),
    (err: unknown) => {
      button.disabled = false;
      document.getElementById('main')?.prepend(h('p', { class: 'notice notice-error', role: 'alert' }, `Could not sign out: ${errorText(err)}`));
    },
  );
}

// The session ended (401) or another tab replaced it (CSRF refused): start again from what the server says.
api.onUnauthorized = () => void start();

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
  out.addEventListener('click', () => signOut(out));
  const who = api.session?.email ?? '';
  const main = h('main', { id: 'main', tabindex: -1 }, page.render(api));
  const skip = h('a', { href: '#main', class: 'skip' }, 'Skip to content');
  skip.addEventListener('click', (ev) => {
    ev.preventDefault();
    main.focus();
  });
  const logo = h('span', { class: 'logo' }, 'Hearth admin');
  // An organization made by `hearth demo` says so.
  void api.get<ServerSettings>('/server_settings').then(
    (s) => s.hearth_demo_organization === true && logo.append(' ', h('span', { class: 'badge demo-badge', title: 'Made by hearth demo: the people and messages are made up' }, 'Demo')),
    () => undefined,
  );
  const header = h(
    'header',
    { class: 'topbar' },
    skip,
    logo,
    nav,
    h('span', { class: 'who' }, who),
    h('a', { href: '/', class: 'to-chat' }, 'Open the chat'),
    h('a', { href: '/help/admin-guide', class: 'to-help' }, 'Help'),
    out,
  );
  return h('div', { class: 'layout' }, header, main);
}

function route(): string {
  return location.hash.replace(/^#/, '') || 'users';
}

/**
 * What the page shows, from what the server says: setup, sign-in (no session, or one whose
 * person may not administer) or the pages. `probe`: ask `GET /json/session` when the page
 * knows no session (not right after signing out).
 */
async function start(probe = true): Promise<void> {
  // A later start (a session lost meanwhile) wins over this one.
  const mine = ++page.generation;
  const current = () => mine === page.generation;
  show(h('main', { id: 'main', class: 'narrow' }, loading('Hearth')));
  let setup: SetupState;
  let me: User | null = null;
  try {
    setup = await api.get<SetupState>('/hearth/setup');
    if (!setup.needs_setup) {
      if (!api.session && probe) await api.resume();
      if (api.session) me = await api.get<User>('/users/me');
    }
  } catch (err) {
    if (!current()) return;
    show(h('main', { id: 'main', class: 'narrow' }, h('p', { class: 'notice notice-error', role: 'alert' }, errorText(err))));
    return;
  }
  if (!current()) return;
  if (setup.needs_setup) {
    document.title = 'Set up Hearth';
    show(setupPage(api, page.setupToken, Boolean(setup.setup_token_required), () => {
      location.hash = 'users';
      void start();
    }));
    return;
  }
  if (!api.session || !me || !(me.role <= 200)) {
    document.title = 'Sign in · Hearth admin';
    const settings = await api.get<ServerSettings>('/server_settings').catch(() => null);
    if (!current()) return;
    const notAdmin = api.session && me ? api.session.email : null;
    show(signInPage(api, settings, notAdmin, () => void start()));
    return;
  }
  show(shell(route()));
}

window.addEventListener('hashchange', () => {
  if (location.hash.includes('setup_token=')) {
    page.setupToken = takeSetupToken();
    void start();
    return;
  }
  if (api.session && root.querySelector('.layout')) {
    show(shell(route()));
    (document.getElementById('main') as HTMLElement | null)?.focus();
  }
});

void start();
