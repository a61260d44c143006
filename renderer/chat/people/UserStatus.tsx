/**
 * User status (emoji + text), as Zulip's "Set status": shown beside a name, and an editor
 * for one's own with Zulip's suggestions (In a meeting, Commuting, ...), saved with
 * `POST /users/me/status` and cleared with empty values. Everyone sees it change live
 * through the `user_status` event.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, post } from '../store/api.js';
import { emojiChar, statusOf } from '../store/people-state.js';
import { store } from '../store/state.js';

/** Emoji one may pick (name, code), Zulip's status suggestions first. */
const EMOJI: [string, string][] = [
  ['working_on_it', '1f6e0'],
  ['calendar', '1f4c5'],
  ['bus', '1f68c'],
  ['face_with_thermometer', '1f912'],
  ['palm_tree', '1f334'],
  ['house', '1f3e0'],
  ['office', '1f3e2'],
  ['coffee', '2615'],
  ['fork_and_knife', '1f374'],
  ['headphones', '1f3a7'],
  ['airplane', '2708'],
  ['zzz', '1f4a4'],
  ['tada', '1f389'],
  ['no_entry', '26d4'],
];
const SUGGESTIONS: { emoji: string; text: string }[] = [
  { emoji: 'working_on_it', text: 'Busy' },
  { emoji: 'calendar', text: 'In a meeting' },
  { emoji: 'bus', text: 'Commuting' },
  { emoji: 'face_with_thermometer', text: 'Out sick' },
  { emoji: 'palm_tree', text: 'Vacationing' },
  { emoji: 'house', text: 'Working remotely' },
  { emoji: 'office', text: 'At the office' },
];
const charOf = (name: string) => emojiChar(EMOJI.find((e) => e[0] === name)?.[1], 'unicode_emoji', name);

/** A person's status, inline: emoji (named for screen readers) and text. */
export function StatusText({ userId, short }: { userId: number; short?: boolean }) {
  const s = statusOf(userId);
  if (!s) return null;
  const emoji = emojiChar(s.emoji_code, s.reaction_type, s.emoji_name);
  const custom = s.reaction_type === 'realm_emoji' ? store.realmEmoji.value[s.emoji_code ?? '']?.source_url : undefined;
  return (
    <span class="user-status" title={short ? s.status_text : undefined}>
      {custom ? (
        <img class="status-emoji" src={custom} alt={`${s.emoji_name}:`} width={16} height={16} />
      ) : emoji && (
        <span class="status-emoji" role="img" aria-label={`${(s.emoji_name ?? '').replace(/_/g, ' ')}:`}>
          {emoji}
        </span>
      )}
      {s.status_text && <span class="status-text">{s.status_text}</span>}
    </span>
  );
}

export function StatusEditor({ onDone }: { onDone?: () => void }) {
  const selfId = store.selfId.value;
  const current = statusOf(selfId);
  const [text, setText] = useState(current?.status_text ?? '');
  const [emoji, setEmoji] = useState(current?.emoji_name ?? '');
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | null>(null);
  // What one is typing is kept: the server's status (one's own save coming back as an
  // event, or a change from another device) fills the fields only while they are untouched.
  const [dirty, setDirty] = useState(false);
  useEffect(() => {
    if (dirty) return;
    setText(current?.status_text ?? '');
    setEmoji(current?.emoji_name ?? '');
  }, [current?.status_text, current?.emoji_name]);

  async function save(statusText: string, emojiName: string, done: string) {
    setMsg(null);
    try {
      const known = EMOJI.find((e) => e[0] === emojiName);
      await post('/users/me/status', {
        status_text: statusText,
        emoji_name: emojiName,
        ...(known ? { emoji_code: known[1], reaction_type: 'unicode_emoji' } : {}),
      });
      setText(statusText);
      setEmoji(emojiName);
      setDirty(false);
      setMsg({ ok: true, text: done });
      onDone?.();
    } catch (err) {
      setMsg({ ok: false, text: err instanceof ApiError ? err.message : String(err) });
    }
  }

  return (
    <form
      class="status-editor"
      onSubmit={(e) => {
        e.preventDefault();
        void save(text.trim(), emoji, 'Status saved.');
      }}
    >
      <div class="status-fields">
        <label>
          Emoji
          <select value={emoji} onChange={(e) => {
              setEmoji(e.currentTarget.value);
              setDirty(true);
            }}>
            <option value="">None</option>
            {EMOJI.map(([name]) => (
              <option key={name} value={name}>
                {charOf(name)} {name.replace(/_/g, ' ')}
              </option>
            ))}
          </select>
        </label>
        <label class="grow">
          Status
          <input value={text} maxLength={60} placeholder="What are you up to?" onInput={(e) => {
              setText(e.currentTarget.value);
              setDirty(true);
            }} />
        </label>
      </div>
      <ul class="status-suggestions" aria-label="Suggestions">
        {SUGGESTIONS.map((s) => (
          <li key={s.text}>
            <button
              type="button"
              class="small"
              onClick={() => {
                setText(s.text);
                setEmoji(s.emoji);
                setDirty(true);
              }}
            >
              <span aria-hidden="true">{charOf(s.emoji)}</span> {s.text}
            </button>
          </li>
        ))}
      </ul>
      <div class="row">
        <button type="submit" class="primary">
          Save status
        </button>
        <button type="button" disabled={!current} onClick={() => void save('', '', 'Status cleared.')}>
          Clear status
        </button>
      </div>
      {msg && (
        <p class={msg.ok ? 'ok' : 'error'} role={msg.ok ? 'status' : 'alert'}>
          {msg.text}
        </p>
      )}
    </form>
  );
}
