/**
 * The chat: sign-in, then the sidebar and the open view; a "Reconnecting…" banner while
 * the server is out of reach. The admin pages are one link away for administrators.
 * On phones (720 px and less, style.css) the top bar is one row: the drawer button, the view's
 * title (its header, drawn over the bar) and a Search button; the account links are in the drawer.
 */
import { ConnectionBanner } from './ConnectionBanner.js';
import { useEffect, useState } from 'preact/hooks';
import { Account } from './settings/Account.js';
import { People, PeopleColumn } from './people/People.js';
import { Settings } from './settings/Settings.js';
import { ChannelBrowser } from './conversations/ChannelBrowser.js';
import { start, stop } from './store/events.js';
import { FeedPane } from './messages/FeedPane.js';
import { Drafts } from './compose/Drafts.js';
import { Inbox } from './conversations/Inbox.js';
import { isFeed } from './store/narrow.js';
import { trackTitle } from './notifications.js';
import { Recent } from './conversations/Recent.js';
import { Scheduled } from './compose/Scheduled.js';
import { go, href, listenToHash, view } from './store/router.js';
import { checkSession, session, signOut } from './store/session.js';
import { Sidebar } from './sidebar/Sidebar.js';
import { SignIn } from './SignIn.js';
import { store } from './store/state.js';
import { ApiError } from './store/api.js';
import { SearchBox, SearchResults, SearchToggle } from './search/Search.js';
import { installShortcuts } from './shortcuts.js';
import { ShortcutsHelp } from './ShortcutsHelp.js';
import { Toast } from './ui/Toast.js';
import { Lazy } from './ui/Lazy.js';
import { CallLayer } from './calls/CallLayer.js';
import type { OrganizationSection } from './store/narrow.js';

/** The organization settings' code, fetched when first opened (a chunk of its own: admin/). */
const loadOrganization = () => import('./admin/Organization.js').then((m) => m.Organization);

function Main() {
  const v = view.value;
  if (isFeed(v)) return <FeedPane v={v} />;
  if (v.kind === 'recent') return <Recent />;
  if (v.kind === 'search') return <SearchResults v={v} />;
  if (v.kind === 'channels') return <ChannelBrowser />;
  if (v.kind === 'account') return <Account />;
  if (v.kind === 'drafts') return <Drafts />;
  if (v.kind === 'scheduled') return <Scheduled />;
  if (v.kind === 'people') return <People />;
  if (v.kind === 'settings') return <Settings />;
  if (v.kind === 'organization') return <Lazy load={loadOrganization} what="the organization settings" props={{ section: v.section as OrganizationSection }} />;
  return <Inbox />;
}

/**
 * Admin (the organization settings; "Open the chat" while they are open), Settings, Account, Help (the
 * help center, /help/; its admin guide from the organization settings) and Sign out: in the top bar, and in the drawer on phones (`onNavigate` closes it).
 */
function AccountLinks({ where, onNavigate }: { where: 'topbar' | 'drawer'; onNavigate?: () => void }) {
  return (
    <nav class={`account-links in-${where}`} aria-label="Account" onClick={(e) => (e.target as HTMLElement).closest('a') && onNavigate?.()}>
      {store.isAdmin.value &&
        (view.value.kind === 'organization' ? (
          <a
            href="/"
            onClick={(e) => {
              e.preventDefault();
              go({ kind: 'inbox' });
            }}
          >
            Open the chat
          </a>
        ) : (
          // `/admin/` (the address the desktop window and bookmarks use) is this page: opened in place, without a reload.
          <a
            href="/admin/"
            onClick={(e) => {
              if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
              e.preventDefault();
              go({ kind: 'organization', section: 'users' });
            }}
          >
            Admin
          </a>
        ))}
      <a href={href({ kind: 'settings', tab: 'preferences' })}>Settings</a>
      <a href={href({ kind: 'account' })}>Account</a>
      {/* In the organization settings, Help opens the admin guide. */}
      <a href={view.value.kind === 'organization' ? '/help/admin-guide' : '/help/'}>Help</a>
      {/* The event queue goes first, while the session still works (no 401 from its long-poll or its release). */}
      <button type="button" class="link" onClick={() => void stop().then(signOut)}>
        Sign out
      </button>
    </nav>
  );
}

function Chat() {
  const [drawer, setDrawer] = useState(false);
  const [fatal, setFatal] = useState('');
  useEffect(() => installShortcuts(), []);
  useEffect(() => {
    const unlisten = listenToHash();
    const untitle = trackTitle();
    start().catch((err: unknown) => {
      if (err instanceof ApiError && err.status === 401) session.value = null;
      else setFatal(String(err));
    });
    const release = () => stop();
    window.addEventListener('pagehide', release);
    return () => {
      unlisten();
      untitle();
      stop();
      window.removeEventListener('pagehide', release);
    };
  }, []);

  if (fatal) return <p class="boot" role="alert">{fatal}</p>;
  if (!store.ready.value) return <p class="boot" role="status">Loading Hearth…</p>;
  return (
    <div
      class={`layout${drawer ? ' drawer-open' : ''}`}
      onKeyDown={(e) => {
        // Escape closes the phone drawer and returns to its button.
        if (e.key !== 'Escape' || !drawer) return;
        e.preventDefault();
        setDrawer(false);
        document.querySelector<HTMLElement>('.topbar .menu')?.focus();
      }}
    >
      <a class="skip" href="#main">
        Skip to the conversation
      </a>
      <header class="topbar">
        <button type="button" class="menu" aria-expanded={drawer} aria-controls="sidebar" onClick={() => setDrawer(!drawer)}>
          <span aria-hidden="true">☰</span>
          <span class="visually-hidden">Channels and conversations</span>
        </button>
        <a class="brand" href={href({ kind: 'inbox' })}>
          <img src="/static/hearth-icon.png" alt="" width={24} height={24} />
          {store.realmName.value || 'Hearth'}
        </a>
        {store.demo.value && (
          <span class="badge demo-badge" title="Made by hearth demo: the people and messages are made up">
            Demo
          </span>
        )}
        <SearchBox />
        <SearchToggle />
        <AccountLinks where="topbar" />
      </header>
      <ConnectionBanner />
      <div id="sidebar" class="sidebar-wrap">
        <button type="button" class="drawer-close" onClick={() => setDrawer(false)}>
          Close
        </button>
        <AccountLinks where="drawer" onNavigate={() => setDrawer(false)} />
        <Sidebar onNavigate={() => setDrawer(false)} />
      </div>
      <main id="main" tabIndex={-1}>
        <Main />
      </main>
      <ShortcutsHelp />
      <Toast />
      {view.value.kind !== 'people' && <PeopleColumn />}
      {/* Outside the routed view: moving around the chat keeps the call. */}
      <CallLayer />
    </div>
  );
}

export function App() {
  useEffect(() => {
    checkSession().catch(() => (session.value = null));
  }, []);
  if (session.value === undefined) return <p class="boot" role="status">Loading Hearth…</p>;
  if (session.value === null) return <SignIn />;
  return <Chat />;
}
