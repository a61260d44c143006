/**
 * A labelled field: the label, the control and an optional hint that describes it. The control is
 * made by the caller from the IDs it is given (`{(p) => <input {...p} type="email" />}`).
 */
import type { ComponentChildren, JSX } from 'preact';
import { useId } from 'preact/hooks';

export interface FieldIds {
  id: string;
  'aria-describedby'?: string;
}

export function Field({ label, hint, class: cls, children }: { label: ComponentChildren; hint?: ComponentChildren; class?: string; children: (ids: FieldIds) => JSX.Element }) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div class={`field${cls ? ` ${cls}` : ''}`}>
      <label for={id}>{label}</label>
      {children(hint ? { id, 'aria-describedby': hintId } : { id })}
      {hint && (
        <small id={hintId} class="hint">
          {hint}
        </small>
      )}
    </div>
  );
}
