/**
 * The Settings section's list cards (default channels, profile fields, channel folders, custom
 * emoji, linkifiers): a titled card with its intro, a labelled list (an "empty" line when it has
 * nothing), the form that adds to it and the card's notice. `ListRow` is one item with its
 * action button, `AddForm` the form under the list.
 */
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
import { BusyButton } from '../../ui/BusyButton.js';
import { Notice, type NoticeState } from '../../ui/Notice.js';

export function ListCard({
  title,
  intro,
  label,
  empty,
  items,
  notice,
  listClass,
  children,
}: {
  title: string;
  intro: string;
  /** The list's accessible name. */
  label: string;
  /** What the list says when it has nothing. */
  empty: string;
  items: ComponentChildren[];
  notice: NoticeState | null;
  listClass?: string;
  /** The form that adds to the list. */
  children?: ComponentChildren;
}) {
  const id = useId();
  return (
    <section class="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p class="hint">{intro}</p>
      <ul class={`plain-list${listClass ? ` ${listClass}` : ''}`} aria-label={label}>
        {items.length ? items : <li class="empty">{empty}</li>}
      </ul>
      {children}
      <Notice notice={notice} />
    </section>
  );
}

/** One item of a list card: what it shows, and its one action (Delete, Remove, Archive…). */
export function ListRow({
  rowClass,
  busy,
  label,
  action,
  onAction,
  children,
}: {
  rowClass?: string;
  busy: boolean;
  /** The action button's accessible name (which item it acts on). */
  label: string;
  action: string;
  onAction: () => void;
  children: ComponentChildren;
}) {
  return (
    <li class={rowClass}>
      <span>{children}</span>
      <BusyButton class="secondary small" busy={busy} aria-label={label} onClick={onAction}>
        {action}
      </BusyButton>
    </li>
  );
}

/** The form under a list card's list: its fields, then the submit button. */
export function AddForm({
  busy,
  submit,
  onSubmit,
  hidden,
  children,
}: {
  busy: boolean;
  submit: string;
  onSubmit: () => void;
  hidden?: boolean;
  children: ComponentChildren;
}) {
  return (
    <form
      class="inline-form"
      hidden={hidden}
      aria-busy={busy ? 'true' : undefined}
      onSubmit={(ev) => {
        ev.preventDefault();
        onSubmit();
      }}
    >
      {children}
      <BusyButton type="submit" busy={busy}>
        {submit}
      </BusyButton>
    </form>
  );
}
