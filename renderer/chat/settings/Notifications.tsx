/** Settings, Notifications: this browser, the trigger table, sounds, and per-channel overrides. */
import { playSound } from '../notifications.js';
import { ChannelOverrides, COLUMNS } from './ChannelOverrides.js';
import { Check } from './fields.js';
import { NotificationPermission } from './NotificationPermission.js';
import { save, setting } from './save.js';

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

export function Notifications() {
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
