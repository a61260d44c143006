/** Settings, Alert words: words that notify you as a mention does. */
import { useState } from 'preact/hooks';
import { del, post } from '../store/api.js';
import { store } from '../store/state.js';
import { fail, ok } from './save.js';

export function AlertWords() {
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
