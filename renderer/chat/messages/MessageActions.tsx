/**
 * A message's action buttons (shown on hover, on keyboard focus, and for the selected
 * message on touch screens): "Add emoji reaction" and "Message actions", a menu (role=menu: arrows, Home/End,
 * Escape or Tab close it and focus returns to its button) with Zulip's actions, and whichever
 * picker or dialog is open for this message. Reading the overlay signals here (not in
 * MessageItem) keeps a menu opening from re-rendering every message.
 */
import { useLayoutEffect } from 'preact/hooks';
import { DotsIcon, onMenuKey, usePopover } from '../ui/Dialog.js';
import { EmojiPicker } from './EmojiPicker.js';
import { Lightbox } from './Lightbox.js';
import { EditHistoryDialog } from './EditHistory.js';
import { DeleteDialog, MoveDialog, ReceiptsDialog, ReportDialog } from './MessageDialogs.js';
import * as act from './message-actions.js';
import { remindMe } from './reminders.js';
import type { Message } from '../store/state.js';

const SmileyIcon = () => (
  <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round">
    <circle cx="9" cy="10" r="6.5" />
    <path d="M6.3 11.8c1.4 1.6 4 1.6 5.4 0" />
    <circle cx="6.8" cy="8.3" r=".5" fill="currentColor" />
    <circle cx="11.2" cy="8.3" r=".5" fill="currentColor" />
    <path d="M16.5 1.8v4M14.5 3.8h4" />
  </svg>
);

type Item = { label: string; run: () => void | Promise<unknown>; danger?: boolean };

function menuItems(m: Message, anchor: HTMLElement): Item[] {
  const dialog = (kind: 'delete' | 'move' | 'report' | 'receipts' | 'history') => () => act.open({ kind, id: m.id, anchor });
  const starred = m.flags.includes('starred');
  const items: (Item | false)[] = [
    { label: 'Add emoji reaction', run: () => act.open({ kind: 'picker', id: m.id, anchor }) },
    { label: 'Quote and reply', run: () => act.quoteAndReply(m) },
    act.canEdit(m) && { label: 'Edit message', run: () => void (act.editing.value = m.id) },
    act.canMove(m) && { label: 'Move messages', run: dialog('move') },
    act.canResolve(m) && { label: act.isResolved(m.subject) ? 'Unresolve topic' : 'Resolve topic', run: () => act.toggleResolved(m) },
    { label: starred ? 'Unstar message' : 'Star message', run: () => act.setStarred(m, !starred) },
    { label: 'Mark as unread from here', run: () => act.markUnreadFrom(m) },
    { label: 'Remind me about this', run: () => remindMe(m.id, anchor) },
    { label: 'Copy link to message', run: () => act.copyLink(m) },
    act.canViewHistory(m) && { label: 'View edit history', run: dialog('history') },
    act.showsReadReceipts() && { label: 'View read receipts', run: dialog('receipts') },
    act.canReport(m) && { label: 'Report message', run: dialog('report') },
    act.canDelete(m) && { label: 'Delete message', run: dialog('delete'), danger: true },
  ];
  return items.filter((i): i is Item => !!i);
}

function ActionsMenu({ m, anchor }: { m: Message; anchor: HTMLElement }) {
  const ref = usePopover(anchor, () => act.close(false), () => act.close());
  useLayoutEffect(() => ref.current?.querySelector<HTMLElement>('[role=menuitem]')?.focus(), []);
  const items = menuItems(m, anchor);

  const choose = (item: Item) => {
    // Actions that open something else hand the focus on; the rest return it to the button.
    act.close(false);
    const done = item.run();
    if (!act.overlay.value && act.editing.value !== m.id) anchor.focus();
    if (done instanceof Promise) done.catch((err: Error) => act.say(m.id, err.message, true));
  };

  const onKey = (e: KeyboardEvent) => onMenuKey(e, ref.current!, () => act.close());

  return (
    <div ref={ref} class="popover menu" role="menu" aria-label="Message actions" onKeyDown={onKey}>
      {items.map((item) => (
        <button key={item.label} type="button" role="menuitem" tabIndex={-1} class={item.danger ? 'danger' : undefined} onClick={() => choose(item)}>
          {item.label}
        </button>
      ))}
    </div>
  );
}

/**
 * Opens a message's menu, emoji picker or one of its dialogs from elsewhere (right click, a keyboard
 * shortcut), anchored where a click would have opened it, so focus returns there.
 */
export const openOverlayOf =
  (kind: 'menu' | 'picker' | 'history' | 'receipts' | 'move') =>
  (li: HTMLElement, m: { id: number }): void => {
    const button = li.querySelector<HTMLElement>(kind === 'picker' ? '.react-button' : '.actions-button');
    if (button) act.open({ kind, id: m.id, anchor: button });
  };

export const openMenuOf = openOverlayOf('menu');

export function MessageTools({ m }: { m: Message }) {
  const o = act.overlay.value?.id === m.id ? act.overlay.value : null;
  const n = act.notice.value?.id === m.id ? act.notice.value : null;
  const toggle = (kind: 'menu' | 'picker') => (e: MouseEvent) =>
    o?.kind === kind ? act.close() : act.open({ kind, id: m.id, anchor: e.currentTarget as HTMLElement });
  if (m.pending) return null;
  return (
    <>
      <div class={`msg-tools${o ? ' shown' : ''}`}>
        <button type="button" class="icon react-button" aria-label="Add emoji reaction" title="Add emoji reaction" aria-haspopup="dialog" aria-expanded={o?.kind === 'picker'} onClick={toggle('picker')}>
          <SmileyIcon />
        </button>
        <button type="button" class="icon actions-button" aria-label="Message actions" title="Message actions" aria-haspopup="menu" aria-expanded={o?.kind === 'menu'} onClick={toggle('menu')}>
          <DotsIcon size={18} />
        </button>
      </div>
      {o?.kind === 'menu' && <ActionsMenu m={m} anchor={o.anchor} />}
      {o?.kind === 'picker' && <EmojiPicker m={m} anchor={o.anchor} />}
      {o?.kind === 'delete' && <DeleteDialog m={m} />}
      {o?.kind === 'move' && <MoveDialog m={m} />}
      {o?.kind === 'report' && <ReportDialog m={m} />}
      {o?.kind === 'receipts' && <ReceiptsDialog m={m} />}
      {o?.kind === 'history' && <EditHistoryDialog m={m} />}
      {o?.kind === 'lightbox' && <Lightbox src={o.src} title={o.title} />}
      {n && (
        <p class={`msg-notice${n.error ? ' error' : ''}`} role={n.error ? 'alert' : 'status'}>
          {n.text}
        </p>
      )}
    </>
  );
}
