/**
 * Long messages condensed, as Zulip condenses them: a message whose content is taller than about
 * two thirds of the window (Zulip's cutoff: 0.65 of the page's height) shows its first lines only,
 * faded out, with "Show more"; once expanded, "Show less". The choice is kept per message for the
 * page's life, so it survives the message re-rendering and the render window moving past it.
 *
 * The height is measured in a layout effect and applied to the DOM there (`data-tall` on the box,
 * an attribute Preact never renders, which condenses it and keeps room for the button), before the
 * feed's own layout effect puts the reader's place back: condensing never moves what the reader
 * looks at. Images that load later, and a window resized, measure again.
 */
import { signal } from '@preact/signals';
import type { KeyboardEventHandler, MouseEventHandler } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { once } from '../store/once.js';

/** The condensed height, in em of the content's font: keep in step with style.css's `.condense[data-tall]`. */
export const CONDENSED_EM = 14;

/** The messages the reader expanded (by ID). */
export const expanded = signal<ReadonlySet<number>>(new Set());

/** Whether content this tall is condensed, in a window this tall (condensing must hide a good part of it). */
export const isTall = (contentPx: number, windowPx: number, condensedPx: number) => contentPx > Math.max(windowPx * 0.65, condensedPx * 1.5);

/** Whether the box's content is tall; marks the box `data-tall` (condensed, with room for the button) at once. */
function measure(box: HTMLElement): boolean {
  const content = box.firstElementChild as HTMLElement | null;
  if (!content) return false;
  const condensedPx = CONDENSED_EM * parseFloat(getComputedStyle(content).fontSize || '15');
  const tall = isTall(content.scrollHeight, window.innerHeight, condensedPx);
  box.toggleAttribute('data-tall', tall);
  return tall;
}

/** Bumped when the window has been resized (one listener for the page): every message measures again. */
const resized = signal(0);
const watchResize = once((): void => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  window.addEventListener('resize', () => {
    clearTimeout(timer);
    timer = setTimeout(() => resized.value++, 150);
  });
});

export function setExpanded(id: number, open: boolean): void {
  const next = new Set(expanded.value);
  if (open) next.add(id);
  else next.delete(id);
  expanded.value = next;
}

interface Props {
  id: number;
  /** Sanitised HTML. */
  html: string;
  onClick?: MouseEventHandler<HTMLDivElement>;
  onKeyDown?: KeyboardEventHandler<HTMLDivElement>;
}

/** A message's rendered content, condensed when tall, with its "Show more" / "Show less" button. */
export function CondensedContent({ id, html, onClick, onKeyDown }: Props) {
  const box = useRef<HTMLDivElement>(null);
  // The button comes with the next render; `data-tall` has already made its room (no shift then).
  const [tall, setTall] = useState(false);
  const open = expanded.value.has(id);
  const size = resized.value;
  /** "Show less" was pressed: bring the message's start back into view once it is condensed. */
  const collapsing = useRef(false);
  const contentId = `message-content-${id}`;

  const remeasure = () => {
    if (box.current) setTall(measure(box.current));
  };
  useLayoutEffect(remeasure, [html, size]);
  useEffect(watchResize, []);

  useLayoutEffect(() => {
    if (!collapsing.current || !box.current) return;
    collapsing.current = false;
    const scroller = box.current.closest<HTMLElement>('.scroller');
    const li = box.current.closest<HTMLElement>('li') ?? box.current;
    if (!scroller) return;
    const above = li.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
    if (above < 0) scroller.scrollTop += above - 8;
  }, [open]);

  return (
    <div class="condense" ref={box} onLoadCapture={(e) => e.target instanceof HTMLImageElement && remeasure()}>
      <div
        id={contentId}
        class={`content rendered${open ? '' : ' condensable'}`}
        onClick={onClick}
        onKeyDown={onKeyDown}
        onFocusIn={(e) => {
          // Tabbing to a link the fade hides: show the whole message rather than a link out of sight.
          if (open || !box.current?.hasAttribute('data-tall')) return;
          const c = e.currentTarget;
          const below = (e.target as HTMLElement).getBoundingClientRect().bottom - c.getBoundingClientRect().top + c.scrollTop;
          if (below > c.clientHeight * 0.75) setExpanded(id, true);
        }}
        dangerouslySetInnerHTML={{ __html: html }}
      />
      {tall && (
        <button
          type="button"
          class="link condense-toggle"
          aria-expanded={open}
          aria-controls={contentId}
          onClick={() => {
            collapsing.current = open;
            setExpanded(id, !open);
          }}
        >
          {open ? 'Show less' : 'Show more'}
        </button>
      )}
    </div>
  );
}
