/**
 * Organization settings, for owners and administrators, as Zulip's settings overlay has them
 * (`#organization/<section>`; `/admin/`, where the desktop window opens, shows them too): Users and
 * bots, Channels, Settings, Integrations, Status. Each section is a folder beside this file. This code is a chunk
 * of its own, loaded when the view is first opened (App.tsx). Someone signed in who may not
 * administer is told so, offered the chat, and may sign in here as an administrator.
 */
import type { ComponentType } from 'preact';
import type { OrganizationSection } from '../store/narrow.js';
import { href } from '../store/router.js';
import { session } from '../store/session.js';
import { SignInForm } from '../SignIn.js';
import { store } from '../store/state.js';
import { ChannelsPage } from './channels/ChannelsPage.js';
import { IntegrationsPage } from './integrations/IntegrationsPage.js';
import { OrganizationSettingsPage } from './settings/OrganizationSettingsPage.js';
import { StatusPage } from './status/StatusPage.js';
import { UsersPage } from './users/UsersPage.js';

const SECTIONS: readonly { section: OrganizationSection; title: string; Page: ComponentType }[] = [
  { section: 'users', title: 'Users and bots', Page: UsersPage },
  { section: 'channels', title: 'Channels', Page: ChannelsPage },
  { section: 'settings', title: 'Settings', Page: OrganizationSettingsPage },
  { section: 'integrations', title: 'Integrations', Page: IntegrationsPage },
  { section: 'status', title: 'Status', Page: StatusPage },
];

function NotAdmin() {
  return (
    <div class="scroller admin-page">
      <div class="not-admin card">
        <p class="notice notice-error" role="alert">
          This account is not an organization administrator.
        </p>
        <p>You are signed in as {session.value?.email ?? 'someone else'}. Open the chat, or sign in below with an owner or administrator account.</p>
        <p class="actions">
          <a href="/" class="button">
            Open the chat
          </a>
        </p>
      </div>
      {/* Signing in as another account replaces this browser's session: the page starts again as them. */}
      <SignInForm onSignedIn={() => location.reload()} />
    </div>
  );
}

export function Organization({ section }: { section: OrganizationSection }) {
  const current = SECTIONS.find((s) => s.section === section) ?? SECTIONS[0]!;
  const { Page } = current;
  const admin = store.isAdmin.value;
  return (
    <section class="pane settings organization" aria-labelledby="organization-title">
      <header class="feed-header">
        <h1 id="organization-title">{admin ? `Organization settings: ${current.title}` : 'Organization settings'}</h1>
      </header>
      {admin ? (
        <>
          <nav class="settings-tabs" aria-label="Admin sections">
            {SECTIONS.map((s) => (
              <a key={s.section} href={href({ kind: 'organization', section: s.section })} aria-current={s === current ? 'page' : undefined}>
                {s.title}
              </a>
            ))}
          </nav>
          <div class="scroller admin-page">
            <Page />
          </div>
        </>
      ) : (
        <NotAdmin />
      )}
    </section>
  );
}
