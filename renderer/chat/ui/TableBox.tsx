/**
 * A wide table in a box of its own that scrolls sideways on a narrow screen (the page does not);
 * focusable, so the keyboard can scroll it too.
 */
import type { ComponentChildren } from 'preact';

export const TableBox = ({ label, children }: { label: string; children: ComponentChildren }) => (
  <div class="table-wrap" role="region" aria-label={label} tabIndex={0}>
    {children}
  </div>
);

/** A "Loading …" line for a section while its data comes. */
export const Loading = ({ what }: { what: string }) => (
  <p class="loading" role="status">
    Loading {what}…
  </p>
);
