/**
 * The selected message, as Zulip's keyboard model has it (the "blue box"): J/K and the arrow
 * keys move it through the open feed or search results, R/Enter reply to it. It is marked in
 * the page with `aria-current="true"` (and focus, so screen readers read it) on its
 * `li.message`, kept there after every render by `useSelection`; clicking a message selects it.
 */
import { signal } from '@preact/signals';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';

export const selectedId = signal<number | null>(null);

/** The message list of the open view (the feed's or the search results' scroller). */
const list = () => document.querySelector<HTMLElement>('#main .scroller');
const items = (root: HTMLElement) => [...root.querySelectorAll<HTMLElement>('li.message[data-id]')];
const idOf = (li: HTMLElement) => Number(li.dataset.id);

/** Puts the mark on the selected message (and only there). */
function mark(root: HTMLElement | null): HTMLElement | null {
  if (!root) return null;
  let found: HTMLElement | null = null;
  for (const li of root.querySelectorAll<HTMLElement>('li.message[aria-current]')) {
    if (idOf(li) !== selectedId.value) li.removeAttribute('aria-current');
  }
  if (selectedId.value !== null) {
    found = root.querySelector<HTMLElement>(`li.message[data-id="${selectedId.value}"]`);
    if (found) {
      found.setAttribute('aria-current', 'true');
      found.tabIndex = -1;
    }
  }
  return found;
}

/** Selects a message and brings it into view (and focus, unless the person is typing somewhere). */
export function select(id: number | null, focus = true): void {
  selectedId.value = id;
  const li = mark(list());
  if (!li) return;
  li.scrollIntoView({ block: 'nearest' });
  if (focus) li.focus({ preventScroll: true });
}

/** The message `delta` steps from the selected one; without one, the first (or last) on screen. */
export function moveSelection(delta: 1 | -1): void {
  const root = list();
  if (!root) return;
  const all = items(root);
  if (!all.length) return;
  const at = all.findIndex((li) => idOf(li) === selectedId.value);
  let next: HTMLElement | undefined;
  if (at >= 0) next = all[Math.max(0, Math.min(all.length - 1, at + delta))];
  else {
    const box = root.getBoundingClientRect();
    const onScreen = all.filter((li) => {
      const r = li.getBoundingClientRect();
      return r.bottom > box.top && r.top < box.bottom;
    });
    next = delta > 0 ? onScreen[0] : onScreen[onScreen.length - 1];
    next ??= delta > 0 ? all[0] : all[all.length - 1];
  }
  if (next) select(idOf(next));
}

/** The selected message's element, when it is in the open view. */
export const selectedElement = () => (selectedId.value === null ? null : (list()?.querySelector<HTMLElement>(`li.message[data-id="${selectedId.value}"]`) ?? null));

/**
 * Keeps the mark on the selected message of a view: `viewKey` changes clear it (or select
 * `initial`, a message link's message); runs after every render of the view.
 */
export function useSelection(viewKey: string, scroller: { current: HTMLElement | null }, initial?: number): void {
  const shown = useRef<string | null>(null);
  useLayoutEffect(() => {
    selectedId.value = initial ?? null;
    shown.current = null;
  }, [viewKey]);
  useLayoutEffect(() => {
    const li = mark(scroller.current);
    // A message link: its message in the middle of the screen, once it has arrived.
    if (li && initial !== undefined && selectedId.value === initial && shown.current !== viewKey) {
      shown.current = viewKey;
      li.scrollIntoView({ block: 'center' });
    }
  });
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const onClick = (e: MouseEvent) => {
      const li = (e.target as HTMLElement).closest<HTMLElement>('li.message[data-id]');
      if (!li || (e.target as HTMLElement).closest('a, button, input, textarea, select, summary')) return;
      select(idOf(li), false);
    };
    el.addEventListener('click', onClick);
    return () => el.removeEventListener('click', onClick);
  }, [scroller.current]);
}
