/** Links that leave the page: in the desktop window (`../../desktop.ts`) they open in the system browser. */
import { desktop } from '../../desktop.js';

/** A link's click handler: the desktop window hands the address to the system browser; a browser follows the link. */
export function openOutside(ev: MouseEvent): void {
  const open = desktop()?.openExternal;
  const a = (ev.currentTarget as HTMLElement | null)?.closest('a');
  if (!open || !a) return;
  ev.preventDefault();
  void open(a.href);
}
