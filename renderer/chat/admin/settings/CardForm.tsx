/**
 * A settings card that is one form (the organization icon, security, the welcome note): titled
 * by its heading, busy while it saves, its submit handled here (no page load).
 */
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

export function CardForm({ title, busy, onSubmit, children }: { title: string; busy: boolean; onSubmit: () => void; children: ComponentChildren }) {
  const id = useId();
  return (
    <form
      class="card"
      aria-labelledby={id}
      aria-busy={busy ? 'true' : undefined}
      onSubmit={(ev) => {
        ev.preventDefault();
        onSubmit();
      }}
    >
      <h2 id={id}>{title}</h2>
      {children}
    </form>
  );
}
