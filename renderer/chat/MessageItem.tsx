/** One message: sender (for the first of a run), time, the sanitised HTML, reactions, marks. */
import { memo } from 'preact/compat';
import { sanitize } from './html.js';
import { store, userName, type Message } from './state.js';
import { fullTimeOf, isoOf, timeOf } from './time.js';

function Reactions({ m }: { m: Message }) {
  if (!m.reactions.length) return null;
  const groups = new Map<string, { name: string; code: string; type: string; users: number[] }>();
  for (const r of m.reactions) {
    const key = `${r.reaction_type}:${r.emoji_code}`;
    const g = groups.get(key) ?? { name: r.emoji_name, code: r.emoji_code, type: r.reaction_type, users: [] };
    g.users.push(r.user_id);
    groups.set(key, g);
  }
  return (
    <ul class="reactions" aria-label="Reactions">
      {[...groups.values()].map((g) => (
        <li key={g.code} title={g.users.map(userName).join(', ')} class={g.users.includes(store.selfId.value) ? 'mine' : undefined}>
          <span aria-hidden="true">{emojiOf(g.code, g.type, g.name)}</span>
          <span class="visually-hidden">{g.name.replace(/_/g, ' ')} by {g.users.map(userName).join(', ')}</span> {g.users.length}
        </li>
      ))}
    </ul>
  );
}

/** A Unicode emoji from its code ("1f44d", "1f468-200d-1f373"), else its :name:. */
function emojiOf(code: string, type: string, name: string): string {
  if (type !== 'unicode_emoji') return `:${name}:`;
  try {
    return String.fromCodePoint(...code.split('-').map((c) => parseInt(c, 16)));
  } catch {
    return `:${name}:`;
  }
}

export const MessageItem = memo(function MessageItem({ m, first, unread }: { m: Message; first: boolean; unread: boolean }) {
  const name = m.sender_full_name || userName(m.sender_id);
  return (
    <li
      class={`message${first ? ' first' : ''}${unread ? ' unread' : ''}${m.pending ? ' pending' : ''}`}
      data-id={m.id}
      aria-label={first ? undefined : `${name}, ${timeOf(m.timestamp)}`}
    >
      {first ? (
        <div class="sender">
          <img class="avatar" src={m.avatar_url ?? `/avatar/${m.sender_id}`} alt="" width={32} height={32} loading="lazy" />
          <span class="name">{name}</span>
          <time dateTime={isoOf(m.timestamp)} title={fullTimeOf(m.timestamp)}>
            {timeOf(m.timestamp)}
          </time>
        </div>
      ) : (
        <time class="side-time" dateTime={isoOf(m.timestamp)} title={fullTimeOf(m.timestamp)}>
          {timeOf(m.timestamp)}
        </time>
      )}
      <div class="content rendered" dangerouslySetInnerHTML={{ __html: sanitize(m.content) }} />
      {(m.last_edit_timestamp || m.flags.includes('starred') || m.pending) && (
        <p class="marks">
          {m.pending && <span>Sending…</span>}
          {m.last_edit_timestamp ? <span>(edited)</span> : null}
          {m.flags.includes('starred') && <span>★ starred</span>}
        </p>
      )}
      <Reactions m={m} />
    </li>
  );
});
