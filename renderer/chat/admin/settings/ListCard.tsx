/**
 * The Settings section's list cards (default channels, profile fields, channel folders, custom
 * emoji, linkifiers): a titled card with its intro, a labelled list (an "empty" line when it has
 * nothing), the form that adds to it and the card's notice.
 */
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
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
