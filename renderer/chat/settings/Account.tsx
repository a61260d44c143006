/**
 * One's own account: name, avatar, status and custom profile fields; password; the API key
 * and a zuliprc for the terminal and Python clients (after entering the password again);
 * this browser's desktop notifications and a way to the personal settings; signing out.
 */
import { httpsSite, zuliprc } from './zuliprc.js';
import { useState } from 'preact/hooks';
import { ApiError, del, patch, post, serverSettings, uploadAvatar } from '../store/api.js';
import { href } from '../store/router.js';
import { signOut } from '../store/session.js';
import { NotificationPermission } from './NotificationPermission.js';
import { store, type ProfileField } from '../store/state.js';
import { StatusEditor } from '../people/UserStatus.js';

function useStatus() {
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | null>(null);
  const run = async (work: () => Promise<unknown>, done: string) => {
    setMsg(null);
    try {
      await work();
      setMsg({ ok: true, text: done });
    } catch (err) {
      setMsg({ ok: false, text: err instanceof ApiError ? err.message : String(err) });
    }
  };
  const view = msg && (
    <p class={msg.ok ? 'ok' : 'error'} role={msg.ok ? 'status' : 'alert'}>
      {msg.text}
    </p>
  );
  return { run, view };
}

function Profile() {
  const me = store.users.value.get(store.selfId.value);
  const [name, setName] = useState(me?.full_name ?? '');
  const { run, view } = useStatus();
  return (
    <section class="card" aria-labelledby="profile-title">
      <h2 id="profile-title">Profile</h2>
      <form onSubmit={(e) => (e.preventDefault(), run(() => patch('/settings', { full_name: name.trim() }), 'Name saved.'))}>
        <label>
          Name
          <input required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <button type="submit">Save name</button>
      </form>
      <div class="row">
        {me?.avatar_url && <img class="avatar large" src={me.avatar_url} alt="Your avatar" width={64} height={64} />}
        <label class="button">
          Upload a new avatar
          <input
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp"
            class="visually-hidden"
            onChange={(e) => {
              const f = e.currentTarget.files?.[0];
              if (f) void run(() => uploadAvatar(f), 'Avatar updated.');
            }}
          />
        </label>
      </div>
      {view}
    </section>
  );
}

function Password() {
  const [oldPw, setOld] = useState('');
  const [newPw, setNew] = useState('');
  const { run, view } = useStatus();
  return (
    <section class="card" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            await patch('/settings', { old_password: oldPw, new_password: newPw });
            setOld('');
            setNew('');
          }, 'Password changed. Other browsers signed in as you are signed out.');
        }}
      >
        <label>
          Current password
          <input type="password" autoComplete="current-password" required value={oldPw} onInput={(e) => setOld(e.currentTarget.value)} />
        </label>
        <label>
          New password
          <input type="password" autoComplete="new-password" required minLength={8} value={newPw} onInput={(e) => setNew(e.currentTarget.value)} />
        </label>
        <button type="submit">Change password</button>
      </form>
      {view}
    </section>
  );
}

function ApiKey() {
  const [password, setPassword] = useState('');
  const [key, setKey] = useState<string | null>(null);
  const { run, view } = useStatus();
  const me = store.users.value.get(store.selfId.value);
  const email = me?.email ?? '';
  async function download() {
    // Over HTTPS when the server has it, naming its authority (downloaded beside the file).
    const settings = await serverSettings();
    const port = typeof settings.hearth_https_port === 'number' ? settings.hearth_https_port : null;
    const save = (href: string, name: string) => {
      const a = document.createElement('a');
      a.href = href;
      a.download = name;
      a.click();
    };
    const url = URL.createObjectURL(new Blob([zuliprc(email, key!, httpsSite(location.origin, port), port ? 'hearth-ca.crt' : undefined)], { type: 'application/octet-stream' }));
    save(url, 'zuliprc');
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    if (port) save('/hearth/ca.crt', 'hearth-ca.crt');
  }
  return (
    <section class="card" aria-labelledby="apikey-title">
      <h2 id="apikey-title">API key</h2>
      <p>For the Zulip terminal client, the Python library and bots that act as you.</p>
      {key === null ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void run(async () => {
              const res = await post<{ api_key: string }>('/fetch_api_key', { username: email, password });
              setKey(res.api_key);
              setPassword('');
            }, 'Keep this key secret: it acts as you.');
          }}
        >
          <label>
            Password
            <input type="password" autoComplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
          </label>
          <button type="submit">Show API key</button>
        </form>
      ) : (
        <>
          <p>
            <code class="key" aria-label="Your API key">
              {key}
            </code>
          </p>
          <button type="button" onClick={() => void download()}>
            Download zuliprc
          </button>{' '}
          <button
            type="button"
            onClick={() =>
              confirm('Make a new API key? Programs using the current one (zuliprc files, bots acting as you, phones) stop working until given the new one.') &&
              void run(async () => setKey((await post<{ api_key: string }>('/users/me/api_key/regenerate')).api_key), 'A new API key is ready; the old one no longer works.')
            }
          >
            Make a new API key
          </button>
        </>
      )}
      {view}
    </section>
  );
}

function Notifications() {
  return (
    <section class="card" aria-labelledby="notify-title">
      <h2 id="notify-title">Notifications</h2>
      <NotificationPermission />
      <p>
        <a href={href({ kind: 'settings', tab: 'notifications' })}>Choose what notifies you</a> (sounds, desktop, per channel),{' '}
        <a href={href({ kind: 'settings', tab: 'preferences' })}>the theme and time format</a>, muted users and alert words in Settings.
      </p>
    </section>
  );
}

function Status() {
  return (
    <section class="card" aria-labelledby="status-title">
      <h2 id="status-title">Status</h2>
      <p class="hint">Shown beside your name in People and on your profile card.</p>
      <StatusEditor />
    </section>
  );
}

/** One input for a custom profile field of one's own, by its type. */
function FieldInput({ f, value, onInput }: { f: ProfileField; value: string; onInput: (v: string) => void }) {
  const on = (e: { currentTarget: { value: string } }) => onInput(e.currentTarget.value);
  if (f.type === 2) return <textarea rows={3} value={value} onInput={on} />;
  if (f.type === 3) {
    let options: [string, { text: string; order: string }][] = [];
    try {
      options = Object.entries(JSON.parse(f.field_data || '{}') as Record<string, { text: string; order: string }>).sort((a, b) => Number(a[1].order) - Number(b[1].order));
    } catch {
      /* no options */
    }
    return (
      <select value={value} onChange={on}>
        <option value="">Not set</option>
        {options.map(([k, o]) => (
          <option key={k} value={k}>
            {o.text}
          </option>
        ))}
      </select>
    );
  }
  if (f.type === 4) return <input type="date" value={value} onInput={on} />;
  if (f.type === 5) return <input type="url" value={value} placeholder={f.hint} onInput={on} />;
  return <input value={value} placeholder={f.hint} onInput={on} />;
}

/** Custom profile fields (Zulip's Profile tab): the ones a person may fill in themselves. */
function ProfileFields() {
  const fields = store.profileFields.value.filter((f) => f.type !== 6 && (f as { editable_by_user?: boolean }).editable_by_user !== false);
  const mine = store.users.value.get(store.selfId.value)?.profile_data ?? {};
  const [values, setValues] = useState<Record<number, string>>({});
  const { run, view } = useStatus();
  if (!fields.length) return null;
  const valueOf = (f: ProfileField) => values[f.id] ?? mine[f.id]?.value ?? '';
  return (
    <section class="card" aria-labelledby="fields-title">
      <h2 id="fields-title">About you</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const changed = fields.filter((f) => values[f.id] !== undefined && values[f.id] !== (mine[f.id]?.value ?? ''));
          const set = changed.filter((f) => valueOf(f).trim());
          const cleared = changed.filter((f) => !valueOf(f).trim());
          void run(async () => {
            if (set.length) await patch('/users/me/profile_data', { data: set.map((f) => ({ id: f.id, value: valueOf(f).trim() })) });
            if (cleared.length) await del('/users/me/profile_data', { data: cleared.map((f) => f.id) });
            setValues({});
          }, 'Profile saved.');
        }}
      >
        {[...fields]
          .sort((a, b) => a.order - b.order)
          .map((f) => (
            <label key={f.id}>
              {f.name}
              <FieldInput f={f} value={valueOf(f)} onInput={(v) => setValues({ ...values, [f.id]: v })} />
            </label>
          ))}
        <button type="submit">Save profile</button>
      </form>
      {view}
    </section>
  );
}

export function Account() {
  return (
    <section class="pane account" aria-labelledby="account-title">
      <header class="feed-header">
        <h1 id="account-title">Your account</h1>
      </header>
      <div class="scroller">
        <Profile />
        <Status />
        <ProfileFields />
        <Password />
        <ApiKey />
        <Notifications />
        <section class="card">
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </section>
      </div>
    </section>
  );
}
