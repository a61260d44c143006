/**
 * A person's card (Zulip's user card): avatar, name, status, availability, role, local time,
 * email where the organization shows it, custom profile fields (fetched afresh with
 * `GET /users/{id}?include_custom_profile_fields=true` when the card opens), and actions:
 * send a direct message, copy the mention, mute or unmute. A modal <dialog>: labelled by
 * the name, the rest of the page inert while it is open, Tab kept inside, Esc closes it, and
 * focus goes back to what opened it. It renders into its own root, so any view can open it.
 */
import { render } from 'preact';
import { signal } from '@preact/signals';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, del, get, post } from '../store/api.js';
import { trapTab } from '../ui/Dialog.js';
import { sanitize } from '../messages/html.js';
import { ago, AVAILABILITY_TEXT, availabilityOf, lastSeen, roleName } from '../store/people-state.js';
import { go, href } from '../store/router.js';
import { session } from '../store/session.js';
import { store, twentyFourHour, userName, type ProfileField, type User } from '../store/state.js';
import { once } from '../store/once.js';
import { StatusEditor, StatusText } from './UserStatus.js';

const card = signal<{ userId: number; from: HTMLElement | null } | null>(null);
/** The card's own root, made the first time a card opens; going elsewhere (a link, Back) closes the card. */
const mountCardHost = once((): void => {
  const root = document.createElement('div');
  root.id = 'profile-card-root';
  document.body.appendChild(root);
  render(<CardHost />, root);
  window.addEventListener('hashchange', () => card.value && closeProfileCard());
});

/** Opens the card for a person; focus returns to `from` (default: the focused element) on close. */
export function openProfileCard(userId: number, from?: HTMLElement | null): void {
  mountCardHost();
  card.value = { userId, from: card.value?.from ?? from ?? (document.activeElement as HTMLElement | null) };
}

/** Closes the card and puts focus back where the person was (Zulip #15946). */
export function closeProfileCard(): void {
  const from = card.value?.from;
  document.querySelector<HTMLDialogElement>('dialog.profile-card')?.close();
  card.value = null;
  if (from?.isConnected) from.focus();
}

/** Their local time ("9:41 PM"), in their time zone, with the reader's 12/24-hour choice. */
export function localTimeOf(tz: string | undefined, now: number): string | null {
  if (!tz) return null;
  try {
    const h24 = twentyFourHour.value;
    return new Intl.DateTimeFormat(undefined, { timeZone: tz, hour: 'numeric', minute: '2-digit', hourCycle: h24 ? 'h23' : 'h12' }).format(new Date(now * 1000));
  } catch {
    return null;
  }
}

function parseJson<T>(text: string | undefined, fallback: T): T {
  try {
    return text ? (JSON.parse(text) as T) : fallback;
  } catch {
    return fallback;
  }
}

const EXTERNAL: Record<string, string> = { github: 'https://github.com/%(username)s', twitter: 'https://twitter.com/%(username)s' };

/** One custom field's value, shown as its type says (Zulip's eight field types). */
function FieldValue({ field, value, rendered }: { field: ProfileField; value: string; rendered?: string }) {
  switch (field.type) {
    case 1:
    case 2:
      return rendered ? <div class="rendered" dangerouslySetInnerHTML={{ __html: sanitize(rendered) }} /> : value;
    case 3:
      return parseJson<Record<string, { text: string }>>(field.field_data, {})[value]?.text ?? value;
    case 4: {
      const d = new Date(`${value}T00:00:00`);
      return Number.isNaN(d.getTime()) ? value : d.toLocaleDateString(undefined, { dateStyle: 'long' });
    }
    case 5:
      return /^https?:\/\//i.test(value) ? (
        <a href={value} target="_blank" rel="noopener noreferrer">
          {value}
        </a>
      ) : (
        value
      );
    case 6:
      return parseJson<number[]>(value, []).map(userName).join(', ');
    case 7: {
      const data = parseJson<{ subtype?: string; url_pattern?: string }>(field.field_data, {});
      const pattern = data.url_pattern ?? EXTERNAL[data.subtype ?? ''];
      return pattern ? (
        <a href={pattern.replace('%(username)s', encodeURIComponent(value))} target="_blank" rel="noopener noreferrer">
          {value}
        </a>
      ) : (
        value
      );
    }
    default:
      return value;
  }
}

function Fields({ u }: { u: User }) {
  const data = u.profile_data ?? {};
  const rows = [...store.profileFields.value]
    .sort((a, b) => a.order - b.order)
    .filter((f) => data[f.id]?.value);
  if (!rows.length) return null;
  return (
    <dl class="profile-fields">
      {rows.map((f) => (
        <div key={f.id}>
          <dt>{f.name}</dt>
          <dd>
            <FieldValue field={f} value={data[f.id]!.value} rendered={data[f.id]!.rendered_value} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Card({ userId }: { userId: number }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState('');
  const [editing, setEditing] = useState(false);
  const [copied, setCopied] = useState(false);
  const u = store.users.value.get(userId);
  const selfId = store.selfId.value;
  const isSelf = userId === selfId;
  const muted = store.mutedUsers.value.has(userId);

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    // The newest values of the custom fields, as Zulip's card fetches them.
    const ctl = new AbortController();
    get<{ user: User }>(`/users/${userId}`, { include_custom_profile_fields: true }, { signal: ctl.signal })
      .then((res) => {
        const cur = store.users.value.get(userId);
        if (!cur || !res.user.profile_data) return;
        const users = new Map(store.users.value);
        users.set(userId, { ...cur, profile_data: res.user.profile_data });
        store.users.value = users;
      })
      .catch(() => undefined);
    return () => ctl.abort();
  }, [userId]);

  if (!u) return null;
  const availability = availabilityOf(userId);
  const seen = lastSeen(userId);
  const local = localTimeOf(u.timezone, store.now.value);
  const run = (p: Promise<unknown>) => p.then(() => setError('')).catch((err: unknown) => setError(err instanceof ApiError ? err.message : String(err)));
  const dm = () => {
    closeProfileCard();
    go({ kind: 'dm', userIds: isSelf ? [] : [userId] });
  };

  return (
    <dialog
      ref={ref}
      class="profile-card"
      aria-labelledby="profile-card-name"
      onCancel={(e) => {
        e.preventDefault();
        closeProfileCard();
      }}
      onClick={(e) => e.target === ref.current && closeProfileCard()}
      onKeyDown={(e) => trapTab(e, ref.current!)}
    >
      <div class="profile-head">
        <img class="avatar profile-avatar" src={u.avatar_url ?? `/avatar/${u.user_id}`} alt="" width={80} height={80} />
        <div class="profile-who">
          <h2 id="profile-card-name">
            {u.full_name}
            {isSelf && <span class="muted"> (you)</span>}
          </h2>
          <p class="presence-line">
            <span class={`presence-dot ${availability}`} aria-hidden="true" />
            <span>
              {AVAILABILITY_TEXT[availability]}
              {availability === 'offline' && seen ? `, last active ${ago(seen)}` : ''}
            </span>
          </p>
          <p class="profile-role">{roleName(u)}{!u.is_active && ' (deactivated)'}</p>
          <StatusText userId={userId} />
        </div>
        <button type="button" class="close" aria-label="Close" onClick={closeProfileCard}>
          ×
        </button>
      </div>
      <dl class="profile-facts">
        {local && (
          <div>
            <dt>Local time</dt>
            <dd>
              {local} <span class="muted">({u.timezone})</span>
            </dd>
          </div>
        )}
        {u.delivery_email && (
          <div>
            <dt>Email</dt>
            <dd>
              <a href={`mailto:${u.delivery_email}`}>{u.delivery_email}</a>
            </dd>
          </div>
        )}
        {u.date_joined && (
          <div>
            <dt>Joined</dt>
            <dd>{new Date(u.date_joined).toLocaleDateString(undefined, { dateStyle: 'medium' })}</dd>
          </div>
        )}
      </dl>
      <Fields u={u} />
      {isSelf && editing && <StatusEditor onDone={() => setEditing(false)} />}
      <div class="profile-actions">
        {u.is_active && (
          <button type="button" class="primary" onClick={dm}>
            {isSelf ? 'Message yourself' : 'Send a direct message'}
          </button>
        )}
        <button
          type="button"
          onClick={() =>
            void navigator.clipboard
              ?.writeText(`@**${u.full_name}|${u.user_id}**`)
              .then(() => setCopied(true))
              .catch(() => setError('Copying needs clipboard access.'))
          }
        >
          {copied ? 'Copied' : 'Copy mention'}
        </button>
        {isSelf ? (
          <>
            <button type="button" aria-expanded={editing} onClick={() => setEditing(!editing)}>
              Set status
            </button>
            <a class="button" href={href({ kind: 'account' })} onClick={closeProfileCard}>
              Edit your profile
            </a>
          </>
        ) : muted ? (
          <button type="button" onClick={() => run(del(`/users/me/muted_users/${userId}`))}>
            Unmute this user
          </button>
        ) : (
          <button type="button" onClick={() => run(post(`/users/me/muted_users/${userId}`))}>
            Mute this user
          </button>
        )}
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </dialog>
  );
}

function CardHost() {
  const c = card.value;
  if (!c || !session.value) return null;
  return <Card key={c.userId} userId={c.userId} />;
}
