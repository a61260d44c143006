/**
 * Two overlay shapes for message actions. `Modal`: a native modal <dialog> (role=dialog,
 * labelled by its heading, the page behind inert, Tab kept inside, Escape closes; the caller
 * returns focus). `usePopover`: a menu or picker placed by its button, inside the window
 * (390 px phones too), following the button while the feed scrolls, closed by a click outside.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useLayoutEffect, useRef } from 'preact/hooks';

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Keeps Tab and Shift+Tab inside `root`. */
export function trapTab(e: KeyboardEvent, root: HTMLElement): void {
  if (e.key !== 'Tab') return;
  const items = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null || el === document.activeElement);
  if (!items.length) return;
  const first = items[0]!;
  const last = items[items.length - 1]!;
  if (e.shiftKey && document.activeElement === first) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}

export function Modal({ title, onClose, children, class: cls, wide }: { title: string; onClose: () => void; children: ComponentChildren; class?: string; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const closing = useRef(onClose);
  closing.current = onClose;
  useEffect(() => {
    const d = ref.current!;
    if (!d.open) d.showModal();
    return () => d.open && d.close();
  }, []);
  return (
    <dialog
      ref={ref}
      class={`modal${wide ? ' wide' : ''}${cls ? ` ${cls}` : ''}`}
      aria-labelledby={id}
      onCancel={(e) => {
        e.preventDefault();
        closing.current();
      }}
      onKeyDown={(e) => trapTab(e, ref.current!)}
    >
      <h2 id={id}>{title}</h2>
      {children}
    </dialog>
  );
}

/**
 * Places `pop` by `anchor` (below, else above; kept in the window); a click elsewhere calls
 * `onDismiss`, Escape (wherever focus is, the button included) calls `onEscape`.
 */
export function usePopover(anchor: HTMLElement, onDismiss: () => void, onEscape: () => void) {
  const ref = useRef<HTMLDivElement>(null);
  const dismiss = useRef(onDismiss);
  dismiss.current = onDismiss;
  const escape = useRef(onEscape);
  escape.current = onEscape;
  useLayoutEffect(() => {
    const pop = ref.current!;
    const place = () => {
      if (!anchor.isConnected) return dismiss.current();
      const r = anchor.getBoundingClientRect();
      const w = pop.offsetWidth;
      const h = pop.offsetHeight;
      const vw = document.documentElement.clientWidth;
      const vh = window.innerHeight;
      // Opening rightwards from a button on the left half, leftwards from one on the right half.
      const left = Math.max(8, Math.min(r.left + r.width / 2 < vw / 2 ? r.left : r.right - w, vw - w - 8));
      let top = r.bottom + 4;
      if (top + h > vh - 8) top = r.top - h - 4 >= 8 ? r.top - h - 4 : Math.max(8, vh - h - 8);
      pop.style.left = `${Math.round(left)}px`;
      pop.style.top = `${Math.round(top)}px`;
    };
    place();
    const outside = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!pop.contains(t) && !anchor.contains(t)) dismiss.current();
    };
    // Captured at the document: the popover's Escape, before the app's shortcuts see it.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.isComposing) return;
      e.preventDefault();
      e.stopPropagation();
      escape.current();
    };
    const resized = new ResizeObserver(place);
    resized.observe(pop);
    window.addEventListener('scroll', place, true);
    window.addEventListener('resize', place);
    document.addEventListener('pointerdown', outside, true);
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      resized.disconnect();
      window.removeEventListener('scroll', place, true);
      window.removeEventListener('resize', place);
      document.removeEventListener('pointerdown', outside, true);
    };
  }, [anchor]);
  return ref;
}

/**
 * A role=menu's keys (WAI-ARIA menu pattern): ArrowDown/ArrowUp move through its menuitems (wrapping),
 * Home and End go to the first and last, Tab closes it (`onTab`).
 */
export function onMenuKey(e: KeyboardEvent, menu: HTMLElement, onTab: () => void): void {
  const all = [...menu.querySelectorAll<HTMLElement>('[role=menuitem]')];
  const i = all.indexOf(document.activeElement as HTMLElement);
  const go = (n: number) => {
    e.preventDefault();
    all[(n + all.length) % all.length]?.focus();
  };
  if (e.key === 'ArrowDown') go(i + 1);
  else if (e.key === 'ArrowUp') go(i - 1);
  else if (e.key === 'Home') go(0);
  else if (e.key === 'End') go(all.length - 1);
  else if (e.key === 'Tab') {
    e.preventDefault();
    onTab();
  }
}

/** The "⋮" of a menu button (the message and topic menus). */
export const DotsIcon = ({ size }: { size: number }) => (
  <svg viewBox="0 0 20 20" width={size} height={size} aria-hidden="true" fill="currentColor">
    <circle cx="10" cy="4" r="1.7" />
    <circle cx="10" cy="10" r="1.7" />
    <circle cx="10" cy="16" r="1.7" />
  </svg>
);
