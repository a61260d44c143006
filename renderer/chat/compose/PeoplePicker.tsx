/** Choosing people for a direct message: type part of a name, pick from the matches. */
import { useState } from 'preact/hooks';
import { store, userName } from '../store/state.js';

export function PeoplePicker({ value, onChange }: { value: number[]; onChange: (ids: number[]) => void }) {
  const [q, setQ] = useState('');
  const needle = q.trim().toLowerCase();
  const matches = needle
    ? [...store.users.value.values()]
        .filter((u) => u.is_active && !value.includes(u.user_id) && u.user_id !== store.selfId.value)
        .filter((u) => u.full_name.toLowerCase().includes(needle) || u.email.toLowerCase().includes(needle))
        .slice(0, 6)
    : [];
  const add = (id: number) => {
    onChange([...value, id].sort((a, b) => a - b));
    setQ('');
  };
  return (
    <div class="people-picker">
      <ul class="chips" aria-label="Recipients">
        {value.map((id) => (
          <li key={id}>
            {userName(id)}
            <button type="button" aria-label={`Remove ${userName(id)}`} onClick={() => onChange(value.filter((x) => x !== id))}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <label>
        People
        <input
          value={q}
          placeholder="Type a name"
          onInput={(e) => setQ(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && matches[0]) {
              e.preventDefault();
              add(matches[0].user_id);
            }
          }}
        />
      </label>
      {matches.length > 0 && (
        <ul class="matches" aria-label="Matching people">
          {matches.map((u) => (
            <li key={u.user_id}>
              <button type="button" onClick={() => add(u.user_id)}>
                {u.full_name} <span class="muted">{u.email}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
