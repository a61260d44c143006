/**
 * A view that is one scrolling list page (Drafts, Scheduled messages, the channel browser): its
 * heading (`name`-title labels the section), then the scroller with the last error, if any.
 */
import type { ComponentChildren } from 'preact';

export function ListPane({ name, title, error, children }: { name: string; title: string; error: string; children: ComponentChildren }) {
  return (
    <section class={`pane ${name}`} aria-labelledby={`${name}-title`}>
      <header class="feed-header">
        <h1 id={`${name}-title`}>{title}</h1>
      </header>
      <div class="scroller">
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        {children}
      </div>
    </section>
  );
}
