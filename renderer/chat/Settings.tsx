/**
 * Personal settings, in Zulip's tabs (`#settings/<tab>`): Preferences (theme, time format,
 * font size and line spacing, time zone, availability), Notifications (the trigger table,
 * sounds, this browser's permission, and per-channel overrides where `null` means "use the
 * default"), Muted users, Topics (muted, unmuted and followed) and Alert words. Every change
 * is saved on the server at once (`PATCH /settings` and friends); the events that follow
 * keep this and every other open page in step.
 */
import type { ComponentChildren } from 'preact';
import { signal } from '@preact/signals';
import { useState } from 'preact/hooks';
import { ApiError, del, patch, post } from './api.js';
import type { SettingsTab } from './narrow.js';
import { askForNotifications, notificationsPossible, playSound, testNotification } from './notifications.js';
import { href, view } from './router.js';
import { channelName, store, topicLabel, userName, type Subscription } from './state.js';
import { DENSITY } from './theme.js';

const TABS: { tab: SettingsTab; label: string }[] = [
  { tab: 'preferences', label: 'Preferences' },
  { tab: 'notifications', label: 'Notifications' },
  { tab: 'muted-users', label: 'Muted users' },
  { tab: 'topics', label: 'Topics' },
  { tab: 'alert-words', label: 'Alert words' },
];

/** The last failed save, shown at the top of the page. */
const error = signal('');
const ok = () => (error.value = '');
const fail = (err: unknown) => (error.value = err instanceof ApiError ? err.message : String(err));

const setting = <T,>(name: string, fallback: T): T => (store.userSettings.value[name] as T | undefined) ?? fallback;

/** Saves settings, showing them at once (the user_settings event confirms). */
function save(values: Record<string, unknown>): void {
  const before = store.userSettings.value;
  store.userSettings.value = { ...before, ...values };
  patch('/settings', values).then(() => ok(), (err: unknown) => {
    store.userSettings.value = { ...store.userSettings.value, ...Object.fromEntries(Object.keys(values).map((k) => [k, before[k]])) };
    fail(err);
  });
}

function Check({ name, label, fallback = false }: { name: string; label: ComponentChildren; fallback?: boolean }) {
  return (
    <label class="check">
      <input type="checkbox" checked={setting(name, fallback)} onChange={(e) => save({ [name]: e.currentTarget.checked })} />
      {label}
    </label>
  );
}

function Choice({ name, legend, options }: { name: string; legend: string; options: [number | boolean, string][] }) {
  const cur = setting<unknown>(name, options[0]![0]);
  return (
    <fieldset class="choice">
      <legend>{legend}</legend>
      {options.map(([value, label]) => (
        <label class="check" key={String(value)}>
          <input type="radio" name={name} checked={cur === value} onChange={() => save({ [name]: value })} />
          {label}
        </label>
      ))}
    </fieldset>
  );
}

function Preferences() {
  const size = setting<number>('web_font_size_px', 16);
  const height = setting<number>('web_line_height_percent', 140);
  const zones = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  const tz = setting<string>('timezone', '');
  const browserTz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <>
      <section class="card" aria-labelledby="display-title">
        <h2 id="display-title">Display</h2>
        <Choice name="color_scheme" legend="Theme" options={[[1, 'Automatic (follow the system)'], [2, 'Dark'], [3, 'Light']]} />
        <Choice name="twenty_four_hour_time" legend="Time format" options={[[false, '12-hour (5:30 PM)'], [true, '24-hour (17:30)']]} />
        <fieldset class="choice">
          <legend>Information density</legend>
          <div class="row">
            <button type="button" class="small" aria-pressed={size === 14 && height === 122} onClick={() => save(DENSITY.compact)}>
              Compact
            </button>
            <button type="button" class="small" aria-pressed={size === 16 && height === 140} onClick={() => save(DENSITY.normal)}>
              Default
            </button>
          </div>
          <div class="row">
            <label>
              Font size
              <select value={size} onChange={(e) => save({ web_font_size_px: Number(e.currentTarget.value) })}>
                {[12, 13, 14, 15, 16, 17, 18, 19, 20].map((n) => (
                  <option key={n} value={n}>
                    {n} px{n === 16 ? ' (default)' : ''}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Line spacing
              <select value={height} onChange={(e) => save({ web_line_height_percent: Number(e.currentTarget.value) })}>
                {[122, 130, 140, 150, 158].map((n) => (
                  <option key={n} value={n}>
                    {n}%{n === 140 ? ' (default)' : ''}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </fieldset>
      </section>
      <section class="card" aria-labelledby="tz-title">
        <h2 id="tz-title">Time zone</h2>
        <p class="hint">Others see your local time on your profile card.</p>
        <div class="row">
          <label>
            Time zone
            <select value={tz} onChange={(e) => save({ timezone: e.currentTarget.value })}>
              <option value="">Not set</option>
              {(zones.includes(tz) || !tz ? zones : [tz, ...zones]).map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </select>
          </label>
          {browserTz && browserTz !== tz && (
            <button type="button" class="small" onClick={() => save({ timezone: browserTz })}>
              Use {browserTz}
            </button>
          )}
        </div>
      </section>
      <section class="card" aria-labelledby="keys-title">
        <h2 id="keys-title">Writing</h2>
        <Choice
          name="enter_sends"
          legend="The Enter key"
          options={[
            [true, 'Enter sends; Shift+Enter adds a line'],
            [false, 'Enter adds a line; Ctrl+Enter sends'],
          ]}
        />
      </section>
      <section class="card" aria-labelledby="reading-title">
        <h2 id="reading-title">Reading</h2>
        <Choice
          name="web_mark_read_on_scroll_policy"
          legend="Automatically mark messages as read"
          options={[
            [1, 'Always'],
            [2, 'Only in conversation views (a topic or a direct message conversation)'],
            [3, 'Never'],
          ]}
        />
      </section>
      <section class="card" aria-labelledby="privacy-title">
        <h2 id="privacy-title">Privacy</h2>
        <Check name="presence_enabled" fallback label="Let others see when I am online" />
        <Check name="allow_private_data_export" label="Let administrators export my private data (direct messages and private channels, when the organization moves to Zulip)" />
      </section>
    </>
  );
}

const TRIGGERS: { label: string; keys: [string, string, string, string] }[] = [
  {
    label: 'Direct messages, mentions and alert words',
    keys: ['enable_desktop_notifications', 'enable_sounds', 'enable_offline_push_notifications', 'enable_offline_email_notifications'],
  },
  {
    label: 'Followed topics',
    keys: [
      'enable_followed_topic_desktop_notifications',
      'enable_followed_topic_audible_notifications',
      'enable_followed_topic_push_notifications',
      'enable_followed_topic_email_notifications',
    ],
  },
  {
    label: 'All messages in channels',
    keys: ['enable_stream_desktop_notifications', 'enable_stream_audible_notifications', 'enable_stream_push_notifications', 'enable_stream_email_notifications'],
  },
];
const COLUMNS = ['Desktop', 'Sound', 'Mobile', 'Email'];
const CHANNEL_PROPS: [keyof Subscription & string, string][] = [
  ['desktop_notifications', 'enable_stream_desktop_notifications'],
  ['audible_notifications', 'enable_stream_audible_notifications'],
  ['push_notifications', 'enable_stream_push_notifications'],
  ['email_notifications', 'enable_stream_email_notifications'],
];

const setChannel = (s: Subscription, property: string, value: unknown) =>
  post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: s.stream_id, property, value }] }).then(() => ok(), fail);

function ChannelOverrides() {
  const subs = [...store.subscriptions.value].sort((a, b) => a.name.localeCompare(b.name));
  if (!subs.length) return <p class="muted">You are not subscribed to any channel.</p>;
  return (
    <div class="table-wrap">
      <table class="settings-table">
        <caption class="visually-hidden">Notifications per channel</caption>
        <thead>
          <tr>
            <th scope="col">Channel</th>
            {COLUMNS.map((c) => (
              <th scope="col" key={c}>
                {c}
              </th>
            ))}
            <th scope="col">
              <span class="visually-hidden">Reset</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {subs.map((s) => {
            const custom = CHANNEL_PROPS.some(([p]) => s[p] !== null && s[p] !== undefined);
            return (
              <tr key={s.stream_id}>
                <th scope="row">
                  #{s.name}
                  {s.is_muted && <span class="badge">muted</span>}
                </th>
                {CHANNEL_PROPS.map(([p, global], i) => {
                  const own = s[p] as boolean | null | undefined;
                  return (
                    <td key={p}>
                      <input
                        type="checkbox"
                        aria-label={`${COLUMNS[i]} notifications for #${s.name}`}
                        checked={own ?? setting(global, false)}
                        class={own === null || own === undefined ? 'inherited' : undefined}
                        onChange={(e) => void setChannel(s, p, e.currentTarget.checked)}
                      />
                    </td>
                  );
                })}
                <td>
                  {custom && (
                    <button
                      type="button"
                      class="small"
                      aria-label={`Use the default notifications for #${s.name}`}
                      onClick={() => {
                        for (const [p] of CHANNEL_PROPS) if (s[p] !== null && s[p] !== undefined) void setChannel(s, p, null);
                      }}
                    >
                      Reset
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** This browser's permission for desktop notifications, and a test. */
export function NotificationPermission() {
  const [perm, setPerm] = useState<string>(notificationsPossible() ? Notification.permission : 'unsupported');
  return (
    <div class="permission">
      {perm === 'unsupported' ? (
        <p class="muted">Desktop notifications need a secure connection (HTTPS, or this computer's own address); sounds and the unread count in the tab title still work.</p>
      ) : perm === 'granted' ? (
        <p>Desktop notifications are allowed in this browser.</p>
      ) : perm === 'denied' ? (
        <p class="muted">This browser blocks notifications from Hearth: allow them in the site settings of the address bar.</p>
      ) : (
        <button type="button" onClick={() => void askForNotifications().then((p) => setPerm(p))}>
          Turn on desktop notifications
        </button>
      )}
      <button type="button" class="small" onClick={testNotification}>
        Send a test notification
      </button>
    </div>
  );
}

function Notifications() {
  const sounds = ['none', ...setting<string[]>('available_notification_sounds', ['zulip', 'ding', 'chime-up', 'chime-down', 'clarinet', 'drumroll'])];
  const sound = setting<string>('notification_sound', 'zulip');
  return (
    <>
      <section class="card" aria-labelledby="browser-title">
        <h2 id="browser-title">This browser</h2>
        <NotificationPermission />
      </section>
      <section class="card" aria-labelledby="triggers-title">
        <h2 id="triggers-title">When to notify you</h2>
        <div class="table-wrap">
          <table class="settings-table">
            <caption class="visually-hidden">Notification triggers</caption>
            <thead>
              <tr>
                <th scope="col">Messages</th>
                {COLUMNS.map((c) => (
                  <th scope="col" key={c}>
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {TRIGGERS.map((t) => (
                <tr key={t.label}>
                  <th scope="row">{t.label}</th>
                  {t.keys.map((k, i) => (
                    <td key={k}>
                      <input
                        type="checkbox"
                        aria-label={`${COLUMNS[i]}: ${t.label}`}
                        checked={setting(k, false)}
                        onChange={(e) => save({ [k]: e.currentTarget.checked })}
                      />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Check name="wildcard_mentions_notify" fallback label="Notify me of @all, @everyone, @channel and @topic mentions" />
        <Check name="pm_content_in_desktop_notifications" fallback label="Show the message text in desktop notifications" />
        <div class="row">
          <label>
            Notification sound
            <select value={sound} onChange={(e) => save({ notification_sound: e.currentTarget.value })}>
              {sounds.map((s) => (
                <option key={s} value={s}>
                  {s === 'none' ? 'None (silent)' : s.replace(/-/g, ' ')}
                </option>
              ))}
            </select>
          </label>
          <button type="button" class="small" disabled={sound === 'none'} onClick={() => playSound(sound)}>
            Play
          </button>
        </div>
      </section>
      <section class="card" aria-labelledby="per-channel-title">
        <h2 id="per-channel-title">Channels</h2>
        <p class="hint">Each channel follows the defaults above until you change one of its boxes; Reset returns it to them.</p>
        <ChannelOverrides />
      </section>
    </>
  );
}

function MutedUsers() {
  const muted = [...store.mutedUsers.value].sort((a, b) => userName(a[0]).localeCompare(userName(b[0])));
  return (
    <section class="card" aria-labelledby="muted-title">
      <h2 id="muted-title">Muted users</h2>
      <p class="hint">Their new messages arrive already read and never notify you. Mute someone from their profile card.</p>
      <ul class="rows" aria-label="Muted users">
        {muted.map(([id, ts]) => (
          <li key={id}>
            <span class="grow">{userName(id)}</span>
            <span class="muted">since {new Date(ts * 1000).toLocaleDateString()}</span>
            <button type="button" class="small" onClick={() => void del(`/users/me/muted_users/${id}`).then(() => ok(), fail)}>
              Unmute {userName(id)}
            </button>
          </li>
        ))}
        {muted.length === 0 && <li class="muted">You have not muted anyone.</li>}
      </ul>
    </section>
  );
}

const POLICY: Record<number, string> = { 1: 'Muted', 2: 'Unmuted', 3: 'Followed' };
const UNDO: Record<number, string> = { 1: 'Unmute', 2: 'Reset', 3: 'Unfollow' };

function Topics() {
  const [which, setWhich] = useState(0);
  const topics = [...store.userTopics.value.values()]
    .filter((t) => !which || t.visibility_policy === which)
    .sort((a, b) => channelName(a.stream_id).localeCompare(channelName(b.stream_id)) || a.topic_name.localeCompare(b.topic_name));
  return (
    <section class="card" aria-labelledby="topics-title">
      <h2 id="topics-title">Topics</h2>
      <label>
        Show
        <select value={which} onChange={(e) => setWhich(Number(e.currentTarget.value))}>
          <option value={0}>All</option>
          <option value={1}>Muted</option>
          <option value={3}>Followed</option>
          <option value={2}>Unmuted</option>
        </select>
      </label>
      <ul class="rows" aria-label="Muted and followed topics">
        {topics.map((t) => (
          <li key={`${t.stream_id}:${t.topic_name}`}>
            <span class="grow">
              <a href={href({ kind: 'topic', streamId: t.stream_id, topic: t.topic_name })}>
                #{channelName(t.stream_id)} &gt; {topicLabel(t.topic_name)}
              </a>
            </span>
            <span class="badge">{POLICY[t.visibility_policy]}</span>
            <button
              type="button"
              class="small"
              aria-label={`${UNDO[t.visibility_policy]} ${topicLabel(t.topic_name)} in #${channelName(t.stream_id)}`}
              onClick={() => void post('/user_topics', { stream_id: t.stream_id, topic: t.topic_name, visibility_policy: 0 }).then(() => ok(), fail)}
            >
              {UNDO[t.visibility_policy]}
            </button>
          </li>
        ))}
        {topics.length === 0 && <li class="muted">No topics here. Mute or follow a topic from its menu.</li>}
      </ul>
    </section>
  );
}

function AlertWords() {
  const [word, setWord] = useState('');
  const words = [...store.alertWords.value].sort((a, b) => a.localeCompare(b));
  return (
    <section class="card" aria-labelledby="alert-title">
      <h2 id="alert-title">Alert words</h2>
      <p class="hint">A message containing one of these words notifies you as a mention does.</p>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          const w = word.trim();
          if (w) void post('/users/me/alert_words', { alert_words: [w] }).then(() => (setWord(''), ok()), fail);
        }}
      >
        <label>
          New alert word
          <input value={word} maxLength={100} onInput={(e) => setWord(e.currentTarget.value)} />
        </label>
        <button type="submit" class="primary" disabled={!word.trim()}>
          Add alert word
        </button>
      </form>
      <ul class="rows" aria-label="Alert words">
        {words.map((w) => (
          <li key={w}>
            <span class="grow">{w}</span>
            <button type="button" class="small" onClick={() => void del('/users/me/alert_words', { alert_words: [w] }).then(() => ok(), fail)}>
              Remove {w}
            </button>
          </li>
        ))}
        {words.length === 0 && <li class="muted">No alert words yet.</li>}
      </ul>
    </section>
  );
}

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
