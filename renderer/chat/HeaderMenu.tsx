/**
 * A view header's buttons (Mark all as read, Next unread topic…). Wider than 720 px they stand in
 * the header as before (the wrapper and the list are `display: contents`, the toggle is hidden);
 * on phones they wait behind one "More actions" button that shows them as a list under it (a
 * disclosure: a real button with aria-expanded; Escape, a choice, or focus going elsewhere closes it).
 */
import type { ComponentChildren } from 'preact';
import { useId, useRef, useState } from 'preact/hooks';

export function HeaderMenu({ children }: { children: ComponentChildren }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  return (
    <div
      class={`header-menu${open ? ' open' : ''}`}
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || !open) return;
        e.preventDefault();
        e.stopPropagation();
        setOpen(false);
        toggle.current?.focus();
      }}
      onFocusOut={(e) => {
        const to = e.relatedTarget as Node | null;
        if (to && !e.currentTarget.contains(to)) setOpen(false);
      }}
    >
      <button ref={toggle} type="button" class="header-menu-toggle" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        {/* "⋯", not the topic menu's "⋮" beside it in a topic's header. */}
        <span aria-hidden="true">⋯</span>
        <span class="visually-hidden">More actions</span>
      </button>
      <div id={id} class="header-menu-items" onClick={(e) => (e.target as HTMLElement).closest('button') && setOpen(false)}>
        {children}
      </div>
    </div>
  );
}
