/** Per-channel notification settings, where `null` means "use the default" (Reset returns to it). */
import { post } from '../store/api.js';
import { store, type Subscription } from '../store/state.js';
import { fail, ok, setting } from './save.js';

/** The notification table's columns (Notifications.tsx's too). */
export const COLUMNS = ['Desktop', 'Sound', 'Mobile', 'Email'];
const CHANNEL_PROPS: [keyof Subscription & string, string][] = [
  ['desktop_notifications', 'enable_stream_desktop_notifications'],
  ['audible_notifications', 'enable_stream_audible_notifications'],
  ['push_notifications', 'enable_stream_push_notifications'],
  ['email_notifications', 'enable_stream_email_notifications'],
];

const setChannel = (s: Subscription, property: string, value: unknown) =>
  post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: s.stream_id, property, value }] }).then(() => ok(), fail);

export function ChannelOverrides() {
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
