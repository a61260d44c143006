/** Zulip's spoiler blocks (`spoiler-block`): a header that opens and closes its content, by click or key. */

/** Opens or closes the spoiler whose header `target` is in; false when it is in none. */
export function toggleSpoiler(target: EventTarget | null): boolean {
  const header = (target as Element | null)?.closest?.('.spoiler-header');
  if (!header) return false;
  const block = header.parentElement!;
  const open = block.classList.toggle('open');
  header.setAttribute('aria-expanded', String(open));
  block.querySelector('.spoiler-content')?.setAttribute('aria-hidden', String(!open));
  return true;
}
