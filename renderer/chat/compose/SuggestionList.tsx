/**
 * The message box's suggestion list (autocomplete.ts says what to suggest): a listbox
 * above the box, its active option named by the textarea's `aria-activedescendant`.
 * Up/Down move, Tab or Enter choose (Enter then never sends), Escape closes until the
 * next token; a click or tap chooses too.
 */
import { useEffect, useState } from 'preact/hooks';
import { suggest, tokenAt, type ComposeContext, type Suggestion } from './autocomplete.js';

/** Small line icons (emoji fonts are not everywhere): @ wildcards, groups, channels, private channels, topics. */
const PATHS: Record<NonNullable<Suggestion['icon']>, string> = {
  wildcard: 'M13 10a3 3 0 1 1-6 0 3 3 0 0 1 6 0zm0 0v1.5a2 2 0 0 0 4 0V10a7 7 0 1 0-3 5.7',
  group: 'M7 9a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5zm-5 7c0-3 2.2-4.5 5-4.5s5 1.5 5 4.5M13.5 9a2.2 2.2 0 1 0 0-4.4M14 11.6c2.3.2 4 1.6 4 4.4',
  channel: 'M8 3 6 17M14 3l-2 14M3.5 7.5h14M2.5 12.5h14',
  private: 'M5 9h10v8H5zM7 9V6.5a3 3 0 0 1 6 0V9',
  topic: 'M4 5h12M4 10h12M4 15h7',
};

const Icon = ({ name }: { name: NonNullable<Suggestion['icon']> }) => (
  <svg class="glyph" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round">
    <path d={PATHS[name]} />
  </svg>
);

const LIST_ID = 'compose-suggestions';
const optionId = (i: number) => `${LIST_ID}-${i}`;

interface Options {
  text: string;
  ctx: ComposeContext;
  /** Replaces the message text, the cursor going to `caret`. */
  replace: (text: string, caret: number) => void;
}

export function useAutocomplete({ text, ctx, replace }: Options) {
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState('');
  const token = caret <= text.length ? tokenAt(text, caret) : null;
  const tokenKey = token ? `${token.kind}:${token.start}` : '';
  const items: Suggestion[] = token && tokenKey !== dismissed ? suggest(token, ctx) : [];
  const open = items.length > 0;
  const index = Math.min(active, items.length - 1);

  useEffect(() => setActive(0), [tokenKey, token?.query]);
  useEffect(() => {
    if (!tokenKey) setDismissed('');
  }, [tokenKey]);
  useEffect(() => {
    if (open) document.getElementById(optionId(index))?.scrollIntoView({ block: 'nearest' });
  }, [open, index]);

  function choose(i: number) {
    const s = items[i];
    if (!token || !s) return;
    const next = text.slice(0, token.start) + s.insert + text.slice(token.end);
    const at = token.start + s.insert.length;
    setCaret(at);
    replace(next, at);
  }

  /** Handles a key in the textarea; true when the list took it. */
  function onKeyDown(e: KeyboardEvent): boolean {
    if (!open || e.isComposing) return false;
    const move = (d: number) => setActive((index + d + items.length) % items.length);
    switch (e.key) {
      case 'ArrowDown':
        move(1);
        break;
      case 'ArrowUp':
        move(-1);
        break;
      case 'Enter':
      case 'Tab':
        if (e.shiftKey) return false;
        choose(index);
        break;
      case 'Escape':
        setDismissed(tokenKey);
        break;
      default:
        return false;
    }
    e.preventDefault();
    e.stopPropagation();
    return true;
  }

  /** Follows the cursor (typing, clicks, arrow keys). */
  const track = (e: Event) => setCaret((e.currentTarget as HTMLTextAreaElement).selectionStart);

  const boxProps = {
    'aria-autocomplete': 'list' as const,
    'aria-controls': open ? LIST_ID : undefined,
    'aria-activedescendant': open ? optionId(index) : undefined,
  };

  const list = open ? (
    <ul id={LIST_ID} role="listbox" class="autocomplete" aria-label="Suggestions">
      {items.map((s, i) => (
        <li
          key={s.key}
          id={optionId(i)}
          role="option"
          aria-selected={i === index}
          class={i === index ? 'active' : undefined}
          onMouseDown={(e) => e.preventDefault()}
          onMouseMove={() => i !== index && setActive(i)}
          onClick={() => choose(i)}
        >
          {s.image ? (
            <img src={s.image} alt="" width={20} height={20} loading="lazy" />
          ) : s.icon ? (
            <Icon name={s.icon} />
          ) : (
            <span class="glyph" aria-hidden="true">
              {s.glyph}
            </span>
          )}
          <span class="label">{s.label}</span>
          {s.detail && <span class="detail">{s.detail}</span>}
        </li>
      ))}
    </ul>
  ) : null;

  return { list, boxProps, onKeyDown, track, setCaret, open };
}
