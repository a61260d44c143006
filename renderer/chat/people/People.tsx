/**
 * People (Zulip's user list): everyone in the organization with their availability (Active,
 * Idle, Offline: in words, not only a coloured dot) and status, active people first; a
 * filter box; each person opens their card. One's own status is set at the top. On wide
 * screens a compact copy (`PeopleColumn`) sits to the right of the conversation.
 */
import { signal } from '@preact/signals';
import { useState } from 'preact/hooks';
import './presence.js';
import { openProfileCard } from './ProfileCard.js';
import { AVAILABILITY_TEXT, availabilityOf, statusOf, type Availability } from '../store/people-state.js';
import { store, type User } from '../store/state.js';
import { StatusEditor, StatusText } from './UserStatus.js';

/** Zulip shows everyone up to this many people. */
const MAX_SHOWN = 600;
const ORDER: Record<Availability, number> = { active: 0, idle: 1, offline: 2 };

function sortedPeople(filter: string): { people: { u: User; a: Availability }[]; total: number } {
  const q = filter.trim().toLowerCase();
  const selfId = store.selfId.value;
  const now = store.now.value;
  const all = [...store.users.value.values()]
    .filter((u) => u.is_active && !u.is_bot)
    .filter((u) => !q || u.full_name.toLowerCase().includes(q) || u.email.toLowerCase().includes(q) || (statusOf(u.user_id)?.status_text ?? '').toLowerCase().includes(q))
    .map((u) => ({ u, a: availabilityOf(u.user_id, now) }))
    .sort((x, y) => Number(y.u.user_id === selfId) - Number(x.u.user_id === selfId) || ORDER[x.a] - ORDER[y.a] || x.u.full_name.localeCompare(y.u.full_name));
  return { people: all.slice(0, MAX_SHOWN), total: all.length };
}

function Person({ u, a, compact }: { u: User; a: Availability; compact?: boolean }) {
  const isSelf = u.user_id === store.selfId.value;
  const muted = store.mutedUsers.value.has(u.user_id);
  return (
    <li class={`person ${a}`}>
      <button
        type="button"
        class="person-button"
        aria-haspopup="dialog"
        onClick={(e) => openProfileCard(u.user_id, e.currentTarget)}
      >
        <span class="avatar-wrap">
          <img class="avatar" src={u.avatar_url ?? `/avatar/${u.user_id}`} alt="" width={compact ? 24 : 36} height={compact ? 24 : 36} loading="lazy" />
          <span class={`presence-dot ${a}`} aria-hidden="true" />
        </span>
        <span class="person-text">
          <span class="person-name">
            {u.full_name}
            {isSelf && <span class="muted"> (you)</span>}
            {muted && <span class="badge">muted</span>}
          </span>
          <span class="person-meta">
            <span class={`availability ${a}`}>{AVAILABILITY_TEXT[a]}</span>
            <StatusText userId={u.user_id} short={compact} />
          </span>
        </span>
      </button>
    </li>
  );
}

/** ↑ and ↓ move between people (Tab still walks the whole list). */
function arrows(e: KeyboardEvent): void {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
  const buttons = [...(e.currentTarget as HTMLElement).querySelectorAll<HTMLElement>('.person-button')];
  const i = buttons.indexOf(document.activeElement as HTMLElement);
  const next = buttons[e.key === 'ArrowDown' ? i + 1 : Math.max(0, i - 1)];
  if (i < 0 || !next) return;
  e.preventDefault();
  next.focus();
}

/** Zulip's W: the people filter (the right column where shown, else the People view, once it has rendered). */
export function focusPeopleFilter(): void {
  const visible = () => [...document.querySelectorAll<HTMLInputElement>('.people-column .people-filter input, .people .people-filter input')].find((el) => el.offsetParent !== null);
  const box = visible();
  if (box) return box.focus();
  location.hash = '#people';
  const end = Date.now() + 2000;
  const tick = () => {
    const el = visible();
    if (el) el.focus();
    else if (Date.now() < end) setTimeout(tick, 30);
  };
  tick();
}

function FilterBox({ value, onInput, label }: { value: string; onInput: (v: string) => void; label: string }) {
  return (
    <label class="filter people-filter">
      <span class="visually-hidden">{label}</span>
      <input type="search" placeholder="Filter people" value={value} onInput={(e) => onInput(e.currentTarget.value)} />
    </label>
  );
}

function Counts({ people }: { people: { a: Availability }[] }) {
  const n = (a: Availability) => people.filter((p) => p.a === a).length;
  return (
    <p class="muted people-counts">
      {n('active')} active, {n('idle')} idle, {n('offline')} offline
    </p>
  );
}

export function People() {
  const [filter, setFilter] = useState('');
  const [editing, setEditing] = useState(false);
  const { people, total } = sortedPeople(filter);
  return (
    <section class="pane people" aria-labelledby="people-title">
      <header class="feed-header">
        <h1 id="people-title">People</h1>
      </header>
      <div class="scroller">
        <section class="card your-status" aria-labelledby="your-status-title">
          <div class="row">
            <h2 id="your-status-title">Your status</h2>
            <StatusText userId={store.selfId.value} />
            {!statusOf(store.selfId.value) && <span class="muted">No status set</span>}
            <button type="button" class="small" aria-expanded={editing} onClick={() => setEditing(!editing)}>
              {editing ? 'Close' : 'Set status'}
            </button>
          </div>
          {editing && <StatusEditor onDone={() => setEditing(false)} />}
        </section>
        <FilterBox value={filter} onInput={setFilter} label="Filter people" />
        <Counts people={people} />
        <ul class="people-list" aria-label="People" onKeyDown={arrows}>
          {people.map(({ u, a }) => (
            <Person key={u.user_id} u={u} a={a} />
          ))}
          {people.length === 0 && <li class="muted">{filter ? 'Nobody matches.' : 'Nobody here yet.'}</li>}
        </ul>
        {total > people.length && (
          <p class="muted">
            {total - people.length} more people: filter to find them.
          </p>
        )}
      </div>
    </section>
  );
}

const wideQuery = matchMedia('(min-width: 1200px)');
const wide = signal(wideQuery.matches);
wideQuery.addEventListener('change', () => (wide.value = wideQuery.matches));

/** The right-hand user list on wide screens (Zulip's buddy list); nothing on narrower ones. */
export function PeopleColumn() {
  return wide.value ? <Column /> : null;
}

function Column() {
  const [filter, setFilter] = useState('');
  const { people, total } = sortedPeople(filter);
  return (
    <aside class="people-column" aria-labelledby="people-column-title">
      <h2 id="people-column-title" class="section">
        People
      </h2>
      <FilterBox value={filter} onInput={setFilter} label="Filter people in the side list" />
      <ul class="people-list compact" aria-label="People and their availability" onKeyDown={arrows}>
        {people.slice(0, 200).map(({ u, a }) => (
          <Person key={u.user_id} u={u} a={a} compact />
        ))}
      </ul>
      {total > 200 && <p class="muted">Filter to see more.</p>}
    </aside>
  );
}
