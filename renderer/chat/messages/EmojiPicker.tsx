/**
 * The emoji picker for reactions: a search box, recently used, popular, the organization's
 * custom emoji and every Unicode emoji (loaded on first use). Arrow keys move through the
 * grid, Enter picks (the first match from the search box), Escape closes and focus returns
 * to the button that opened it. Picking an emoji already reacted with takes it back.
 */
import { useEffect, useLayoutEffect, useMemo, useState } from 'preact/hooks';
import { trapTab, usePopover } from '../ui/Dialog.js';
import { customEmoji, labelOf, noteRecentEmoji, popular, realmEmojiUrl, recentEmoji, searchEmoji, unicodeEmoji, unicodeOf, type EmojiChoice } from './emoji-data.js';
import { close, toggleReaction } from './message-actions.js';
import type { Message } from '../store/state.js';

export function EmojiGlyph({ e, size = 20 }: { e: { name: string; code: string; type: string }; size?: number }) {
  if (e.type === 'realm_emoji') {
    const src = realmEmojiUrl(e.code);
    if (src) return <img class="emoji-img" src={src} alt="" width={size} height={size} />;
  }
  const text = e.type === 'unicode_emoji' ? unicodeOf(e.code) : '';
  return <span class="emoji-char">{text || `:${e.name}:`}</span>;
}

const MAX_RESULTS = 400;
/** Emoji drawn on opening; the rest follow in the next task, so the picker shows at once. */
const FIRST_PAINT = 240;

/** The button next to `from` in the direction of an arrow key, by position on screen. */
function neighbour(buttons: HTMLElement[], from: HTMLElement, key: string): HTMLElement | undefined {
  const i = buttons.indexOf(from);
  if (key === 'ArrowLeft') return buttons[i - 1];
  if (key === 'ArrowRight') return buttons[i + 1];
  const r = from.getBoundingClientRect();
  const down = key === 'ArrowDown';
  let best: HTMLElement | undefined;
  let bestScore = Infinity;
  for (const b of buttons) {
    const q = b.getBoundingClientRect();
    const dy = down ? q.top - r.top : r.top - q.top;
    if (dy < 4) continue;
    const score = dy * 1000 + Math.abs(q.left - r.left);
    if (score < bestScore) [best, bestScore] = [b, score];
  }
  return best;
}

export function EmojiPicker({ m, anchor }: { m: Message; anchor: HTMLElement }) {
  const ref = usePopover(anchor, () => close(false), () => close());
  const [all, setAll] = useState<EmojiChoice[] | null>(null);
  const [error, setError] = useState('');
  const [query, setQuery] = useState('');
  const [current, setCurrent] = useState<EmojiChoice | null>(null);
  const [limit, setLimit] = useState(FIRST_PAINT);

  useEffect(() => {
    unicodeEmoji().then(setAll, (err: Error) => setError(err.message));
  }, []);
  useEffect(() => {
    if (!all) return;
    const t = setTimeout(() => setLimit(Infinity), 30);
    return () => clearTimeout(t);
  }, [all]);
  useLayoutEffect(() => {
    // On touch screens the search box would raise the keyboard over the picker: focus the picker itself instead.
    if (matchMedia('(hover: none)').matches) ref.current?.focus();
    else ref.current?.querySelector('input')?.focus();
  }, []);

  const custom = customEmoji();
  const sections = useMemo(() => {
    const unicode = all ?? [];
    if (query.trim()) return [{ title: 'Search results', items: searchEmoji([...custom, ...unicode], query).slice(0, MAX_RESULTS) }];
    return [
      { title: 'Recently used', items: recentEmoji() },
      { title: 'Popular', items: popular(unicode) },
      { title: 'Custom emoji', items: custom },
      { title: 'All emoji', items: unicode.slice(0, limit) },
    ].filter((s) => s.items.length);
  }, [all, query, custom.length, limit]);
  const flat = sections.flatMap((s) => s.items);

  const pick = (e: EmojiChoice | undefined) => {
    if (!e) return;
    noteRecentEmoji(e);
    void toggleReaction(m, e);
    close();
  };

  const onGridKey = (e: KeyboardEvent) => {
    const t = e.target as HTMLElement;
    if (!t.matches('button.emoji') || !['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(e.key)) return;
    e.preventDefault();
    const buttons = [...ref.current!.querySelectorAll<HTMLElement>('button.emoji')];
    const next = neighbour(buttons, t, e.key);
    if (next) next.focus();
    else if (e.key === 'ArrowUp' || e.key === 'ArrowLeft') ref.current!.querySelector('input')?.focus();
  };

  const at = (e: Event) => flat[Number((e.target as HTMLElement).closest<HTMLElement>('button.emoji')?.dataset.i)];
  let index = 0;
  return (
    <div
      ref={ref}
      class="popover emoji-picker"
      role="dialog"
      aria-label="Add emoji reaction"
      tabIndex={-1}
      onKeyDown={(e) => trapTab(e, ref.current!)}
    >
      <input
        type="search"
        aria-label="Search emoji"
        placeholder="Search emoji"
        value={query}
        autoComplete="off"
        onInput={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            pick(query.trim() ? flat[0] : undefined);
          } else if (e.key === 'ArrowDown') {
            e.preventDefault();
            ref.current!.querySelector<HTMLElement>('button.emoji')?.focus();
          }
        }}
      />
      <div
        class="emoji-scroll"
        onClick={(e) => pick(at(e))}
        onKeyDown={onGridKey}
        onFocusIn={(e) => setCurrent(at(e) ?? null)}
        onMouseOver={(e) => setCurrent(at(e) ?? null)}
      >
        {error && <p class="error" role="alert">{error}</p>}
        {!all && !error && <p class="muted" role="status">Loading emoji…</p>}
        {all && query.trim() && !flat.length && <p class="muted" role="status">No emoji match “{query.trim()}”.</p>}
        {sections.map((s) => (
          <section key={s.title} aria-label={s.title}>
            <h3>{s.title}</h3>
            <div class="emoji-grid">
              {s.items.map((e) => {
                const i = index++;
                return (
                  <button key={`${e.type}:${e.code}`} type="button" class="emoji" data-i={i} tabIndex={i === 0 ? 0 : -1} aria-label={labelOf(e.name)} title={`:${e.name}:`}>
                    <EmojiGlyph e={e} size={22} />
                  </button>
                );
              })}
            </div>
          </section>
        ))}
      </div>
      <p class="emoji-current" aria-hidden="true">
        {current ? (
          <>
            <EmojiGlyph e={current} size={24} /> :{current.name}:
          </>
        ) : (
          'Pick an emoji'
        )}
      </p>
    </div>
  );
}
