/**
 * Personal settings, in Zulip's tabs (`#settings/<tab>`): Preferences (theme, time format,
 * font size and line spacing, time zone, availability), Notifications (the trigger table,
 * sounds, this browser's permission, and per-channel overrides where `null` means "use the
 * default"), Muted users, Topics (muted, unmuted and followed) and Alert words. Every change
 * is saved on the server at once (`PATCH /settings` and friends); the events that follow
 * keep this and every other open page in step. Each tab is its own file in settings/, with how they
 * save (settings/save.ts) and their fields (settings/fields.tsx).
 */
import type { SettingsTab } from '../store/narrow.js';
import { href, view } from '../store/router.js';
import { AlertWords } from './AlertWords.js';
import { MutedUsers } from './MutedUsers.js';
import { Notifications } from './Notifications.js';
import { Preferences } from './Preferences.js';
import { error } from './save.js';
import { Topics } from './Topics.js';

const TABS: { tab: SettingsTab; label: string }[] = [
  { tab: 'preferences', label: 'Preferences' },
  { tab: 'notifications', label: 'Notifications' },
  { tab: 'muted-users', label: 'Muted users' },
  { tab: 'topics', label: 'Topics' },
  { tab: 'alert-words', label: 'Alert words' },
];

const ErrorLine = () =>
  error.value ? (
    <p class="error" role="alert">
      {error.value}
    </p>
  ) : null;

export function Settings() {
  const v = view.value;
  const tab: SettingsTab = v.kind === 'settings' ? v.tab : 'preferences';
  const label = TABS.find((t) => t.tab === tab)?.label ?? '';
  return (
    <section class="pane settings" aria-labelledby="settings-title">
      <header class="feed-header">
        <h1 id="settings-title">Settings: {label}</h1>
      </header>
      <nav class="settings-tabs" aria-label="Settings sections">
        <a href={href({ kind: 'account' })}>Account</a>
        {TABS.map((t) => (
          <a key={t.tab} href={href({ kind: 'settings', tab: t.tab })} aria-current={t.tab === tab ? 'page' : undefined}>
            {t.label}
          </a>
        ))}
      </nav>
      <div class="scroller">
        <ErrorLine />
        {tab === 'preferences' && <Preferences />}
        {tab === 'notifications' && <Notifications />}
        {tab === 'muted-users' && <MutedUsers />}
        {tab === 'topics' && <Topics />}
        {tab === 'alert-words' && <AlertWords />}
      </div>
    </section>
  );
}
