/**
 * Zulip's keyboard shortcuts (its KEYDOWN_MAPPINGS), the one table of them: the handler
 * below and the "Keyboard shortcuts" list (ShortcutsHelp.tsx, `?`) both read SHORTCUTS.
 * A key does nothing while the person types in a field, nor with Ctrl, Alt or Cmd held
 * (Shift is how `?`, `*` and Shift+I are typed), nor while a dialog is open; Escape is
 * the exception: it leaves a field, a search or a selection.
 */
import { signal } from '@preact/signals';
import { go, view } from './store/router.js';
import { goNextUnreadDm, goNextUnreadTopic } from './messages/next-unread.js';
import { moveSelection, select, selectedElement, selectedId } from './messages/selection.js';
import { leaveSearch, openSearchBox } from './search/Search.js';
import { store, type Message } from './store/state.js';
import { dmPeers, isFeed, type View } from './store/narrow.js';
import { announce } from './ui/Toast.js';
import { composeElsewhere } from './compose/compose-bus.js';
import { openMenuOf, openOverlayOf } from './messages/MessageActions.js';
import * as act from './messages/message-actions.js';
import { focusPeopleFilter } from './people/People.js';
import { openProfileCard } from './people/ProfileCard.js';
import { imageLinkOf } from './messages/Lightbox.js';
import { showChannelTopics } from './sidebar/SidebarTopics.js';

/** Whether the "Keyboard shortcuts" dialog is open. */
export const helpOpen = signal(false);

export interface Shortcut {
  /** `KeyboardEvent.key` values. */
  keys: string[];
  /** As the list shows them. */
  show: string[];
  does: string;
  group: 'Messages' | 'Going places' | 'Writing' | 'The app';
  /** Only when focus is in the message list (the arrow keys: elsewhere they scroll or move). */
  inList?: boolean;
  /** Pressed with Ctrl (Cmd on a Mac); taken from the browser only while a message is selected. */
  ctrl?: boolean;
  run: () => void;
}

export const SHORTCUTS: Shortcut[] = [
  { keys: ['j'], show: ['J'], does: 'Next message', group: 'Messages', run: () => moveSelection(1) },
  { keys: ['k'], show: ['K'], does: 'Previous message', group: 'Messages', run: () => moveSelection(-1) },
  { keys: ['ArrowDown'], show: ['↓'], does: 'Next message (in the message list)', group: 'Messages', inList: true, run: () => moveSelection(1) },
  { keys: ['ArrowUp'], show: ['↑'], does: 'Previous message (in the message list)', group: 'Messages', inList: true, run: () => moveSelection(-1) },
  { keys: ['r', 'Enter'], show: ['R', 'Enter'], does: 'Reply to the selected message', group: 'Writing', run: () => reply() },
  { keys: ['i'], show: ['I'], does: 'Actions of the selected message', group: 'Messages', run: () => onSelected(openMenuOf) },
  { keys: [':'], show: [':'], does: 'React to the selected message', group: 'Messages', run: () => onSelected(openOverlayOf('picker')) },
  { keys: ['e'], show: ['E'], does: 'Edit the selected message', group: 'Messages', run: () => onAllowed(act.canEdit, 'You may not edit this message.', (_li, m) => void (act.editing.value = m.id)) },
  { keys: ['u'], show: ['U'], does: "The selected message's sender", group: 'Messages', run: () => onSelected(senderCardOf) },
  { keys: ['+'], show: ['+'], does: 'React with 👍 (again: take it back)', group: 'Messages', run: () => onSelected(reactWith(THUMBS_UP)) },
  { keys: ['='], show: ['='], does: 'Toggle the first reaction', group: 'Messages', run: () => onSelected(toggleFirstReaction) },
  { keys: ['s'], show: ['Ctrl', 'S'], ctrl: true, does: 'Star or unstar the selected message', group: 'Messages', run: () => onSelected(toggleStarOf) },
  { keys: ['v'], show: ['V'], does: 'View the image in the selected message', group: 'Messages', run: () => onSelected(viewImageOf) },
  { keys: ['M'], show: ['Shift', 'M'], does: "Mute or unmute the selected message's topic", group: 'Messages', run: () => onAllowed((m) => m.type === 'stream', 'Direct messages have no topic to mute.', toggleMuteOf) },
  { keys: ['m'], show: ['M'], does: 'Move the selected message', group: 'Messages', run: () => onAllowed(act.canMove, 'You may not move this message.', openOverlayOf('move')) },
  { keys: ['H'], show: ['Shift', 'H'], does: 'Edit history of the selected message', group: 'Messages', run: () => onAllowed(act.canViewHistory, 'This message has no edit history to show.', openOverlayOf('history')) },
  { keys: ['V'], show: ['Shift', 'V'], does: 'Read receipts of the selected message', group: 'Messages', run: () => onAllowed(act.showsReadReceipts, 'Read receipts are turned off in this organization.', openOverlayOf('receipts')) },
  { keys: ['U'], show: ['Shift', 'U'], does: 'Mark as unread from the selected message', group: 'Messages', run: () => onSelected(markUnreadOf) },
  { keys: ['End'], show: ['End'], does: 'Newest message (the view is then read)', group: 'Messages', run: () => toEdge('newest') },
  { keys: ['Home'], show: ['Home'], does: 'Oldest message shown (older ones load as you go)', group: 'Messages', run: () => toEdge('oldest') },
  { keys: ['>'], show: ['>'], does: 'Quote and reply to the selected message', group: 'Writing', run: () => onSelected((_li, m) => void reply().then(() => act.quoteAndReply(m))) },
  { keys: ['@'], show: ['@'], does: 'Reply mentioning the sender', group: 'Writing', run: () => onSelected((_li, m) => void reply().then(() => act.mentionSender(m))) },
  { keys: ['R'], show: ['Shift', 'R'], does: 'Reply to the sender directly', group: 'Writing', run: () => onSelected((_li, m) => void replyToSender(m)) },
  { keys: ['ArrowLeft'], show: ['←'], does: 'Edit your last message here (in the message list)', group: 'Writing', inList: true, run: () => editLastOwn() },
  { keys: ['c'], show: ['C'], does: 'New topic', group: 'Writing', run: () => newTopic() },
  { keys: ['x'], show: ['X'], does: 'New direct message', group: 'Writing', run: () => newDirect() },
  // In the message and edit boxes (compose-box.ts, Compose.tsx), so listed only.
  { keys: [], show: ['Ctrl', 'B'], does: 'Bold (in the message box)', group: 'Writing', run: () => undefined },
  { keys: [], show: ['Ctrl', 'I'], does: 'Italic (in the message box)', group: 'Writing', run: () => undefined },
  { keys: [], show: ['Ctrl', 'Shift', 'L'], does: 'Link (in the message box)', group: 'Writing', run: () => undefined },
  { keys: [], show: ['Alt', 'P'], does: 'Preview the message, and back', group: 'Writing', run: () => undefined },
  { keys: ['s'], show: ['S'], does: "The selected message's conversation", group: 'Going places', run: () => onSelected((_li, m) => go(act.conversationOf(m, m.id))) },
  { keys: ['S'], show: ['Shift', 'S'], does: "The selected message's channel", group: 'Going places', run: () => onAllowed((m) => m.type === 'stream', 'Direct messages are in no channel.', (_li, m) => go({ kind: 'channel', streamId: m.stream_id!, near: m.id })) },
  { keys: ['n'], show: ['N'], does: 'Next unread topic', group: 'Going places', run: goNextUnreadTopic },
  { keys: ['p'], show: ['P'], does: 'Next unread direct message', group: 'Going places', run: goNextUnreadDm },
  { keys: ['I'], show: ['Shift', 'I'], does: 'Inbox', group: 'Going places', run: () => go({ kind: 'inbox' }) },
  { keys: ['t'], show: ['T'], does: 'Recent conversations', group: 'Going places', run: () => go({ kind: 'recent' }) },
  { keys: ['a'], show: ['A'], does: 'Combined feed', group: 'Going places', run: () => go({ kind: 'feed' }) },
  { keys: ['*'], show: ['*'], does: 'Starred messages', group: 'Going places', run: () => go({ kind: 'starred' }) },
  { keys: ['w'], show: ['W'], does: 'Filter people', group: 'Going places', run: focusPeopleFilter },
  { keys: ['y'], show: ['Y'], does: 'All topics of this channel (in the sidebar)', group: 'Going places', run: () => channelTopics() },
  { keys: ['q'], show: ['Q'], does: 'Filter channels and conversations', group: 'Going places', run: () => document.querySelector<HTMLInputElement>('.sidebar input[type="search"]')?.focus() },
  { keys: ['d'], show: ['D'], does: 'Drafts', group: 'Going places', run: () => go({ kind: 'drafts' }) },
  { keys: ['/'], show: ['/'], does: 'Search', group: 'The app', run: () => focusSearch() },
  // Ctrl+K works everywhere, even in a field (handled before the others, so no keys here).
  { keys: [], show: ['Ctrl', 'K'], does: 'Search (also while typing)', group: 'The app', run: () => focusSearch() },
  { keys: ['?'], show: ['?'], does: 'This list of shortcuts', group: 'The app', run: () => (helpOpen.value = true) },
  { keys: ['Escape'], show: ['Esc'], does: 'Leave a field, close the search, clear the selection', group: 'The app', run: () => undefined },
];

const FIELD = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]';
const CONTROL = 'a[href], button, summary, [role="button"], [role="menuitem"], [role="option"], [role="tab"]';

export const isTyping = (t: EventTarget | null) => t instanceof HTMLElement && t.closest(FIELD) !== null;

function onKeyDown(e: KeyboardEvent): void {
  if (e.defaultPrevented || e.isComposing) return;
  if (document.querySelector('dialog[open]')) return; // a dialog has the keyboard (and handles its own Escape)
  if (e.key === 'Escape') return escape(e);
  if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
    e.preventDefault();
    return focusSearch();
  }
  if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && !isTyping(e.target) && selectedId.value !== null) {
    const s = SHORTCUTS.find((x) => x.ctrl && x.keys.includes(e.key.toLowerCase()));
    if (s) {
      e.preventDefault();
      return s.run();
    }
  }
  if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
  const target = e.target as HTMLElement;
  // A menu or picker open on the page keeps its keys (arrows, letters to jump).
  if (target.closest?.('[role="menu"], [role="listbox"], .popover')) return;
  const s = SHORTCUTS.find((x) => !x.ctrl && x.keys.includes(e.key));
  if (!s || s.keys[0] === 'Escape') return;
  if (s.inList && !target.closest?.('#main .scroller')) return;
  // Enter on a link or button is theirs.
  if (e.key === 'Enter' && target.closest?.(CONTROL)) return;
  e.preventDefault();
  s.run();
}

/** Escape: out of a field (back to the messages), out of a search, or the selection cleared. */
function escape(e: KeyboardEvent): void {
  const t = e.target as HTMLElement;
  if (isTyping(t)) {
    t.blur();
    focusMessages();
    return;
  }
  if (view.value.kind === 'search') {
    e.preventDefault();
    leaveSearch();
    return;
  }
  if (selectedId.value !== null) {
    e.preventDefault();
    select(null, false);
    focusMessages();
  }
}

/** End and Home: to the newest message ("Jump to newest" when more are below) or the oldest shown, selected. */
function toEdge(edge: 'newest' | 'oldest'): void {
  const scroller = document.querySelector<HTMLElement>('#main .scroller');
  if (!scroller) return;
  if (edge === 'newest') document.querySelector<HTMLButtonElement>('#main button.jump')?.click();
  scroller.scrollTop = edge === 'newest' ? scroller.scrollHeight : 0;
  requestAnimationFrame(() => {
    const all = scroller.querySelectorAll<HTMLElement>('li.message');
    const li = edge === 'newest' ? all[all.length - 1] : all[0];
    if (li) select(Number(li.dataset.id));
  });
}

/** ←: the newest message of mine in the open view, into the edit box (when the organization allows). */
function editLastOwn(): void {
  const items = [...document.querySelectorAll<HTMLElement>('#main li.message')].reverse();
  for (const li of items) {
    const m = loadedMessage(Number(li.dataset.id));
    if (m?.sender_id !== store.selfId.value) continue;
    select(m.id);
    if (act.canEdit(m)) act.editing.value = m.id;
    else announce('You may not edit this message.');
    return;
  }
  announce('You have no message here to edit.');
}

/** Focus back to the selected message, else the message list, else the main area. */
export function focusMessages(): void {
  const el = selectedElement() ?? document.querySelector<HTMLElement>('#main .scroller') ?? document.getElementById('main');
  el?.focus({ preventScroll: true });
}

/** The search box, its text selected (on a phone it opens over the top bar first). */
export function focusSearch(): void {
  openSearchBox();
}

/** Runs an opener on the selected message (its element and record), or says how to select one. */
function onSelected(open: (li: HTMLElement, m: Message) => void): void {
  const li = selectedElement();
  const m = selectedMessage();
  if (li && m) open(li, m);
  else announce('Select a message first (J and K).');
}

/** Like onSelected, for an action the selected message may not allow: says why instead. */
function onAllowed(allowed: (m: Message) => boolean, why: string, open: (li: HTMLElement, m: Message) => void): void {
  onSelected((li, m) => (allowed(m) ? open(li, m) : announce(why)));
}

const THUMBS_UP = { name: '+1', code: '1f44d', type: 'unicode_emoji' };

/** U: the sender's profile card, opened from their name. */
const senderCardOf = (li: HTMLElement, m: Message) => openProfileCard(m.sender_id, li.querySelector<HTMLElement>('.sender-button') ?? li);

/** +: my 👍 on the selected message, or taken back. */
const reactWith = (e: typeof THUMBS_UP) => (_li: HTMLElement, m: Message) => void act.toggleReaction(m, e);

/** =: the message's first reaction, mine added or taken back (Zulip's toggle_first_reaction). */
function toggleFirstReaction(_li: HTMLElement, m: Message): void {
  const r = m.reactions[0];
  if (!r) return announce('This message has no reaction yet.');
  void act.toggleReaction(m, { name: r.emoji_name, code: r.emoji_code, type: r.reaction_type });
}

/** Ctrl+S: the star on, or off. */
const toggleStarOf = (_li: HTMLElement, m: Message) => void act.setStarred(m, !m.flags.includes('starred'));

/** V: the message's first image in the lightbox. */
function viewImageOf(li: HTMLElement, m: Message): void {
  const a = imageLinkOf(li.querySelector('.message_inline_image a img'));
  if (!a) return announce('This message has no image.');
  act.openLightbox(m.id, a);
}

/** Shift+M: the topic muted, or unmuted; says which. */
const toggleMuteOf = (_li: HTMLElement, m: Message) => void act.toggleTopicMute(m).then(announce, (err: Error) => announce(err.message));

/** Shift+U: as the menu's "Mark as unread from here". */
const markUnreadOf = (_li: HTMLElement, m: Message) => void act.markUnreadFrom(m);

/** The selected message, if it is loaded (in any feed in the store). */
function selectedMessage(): Message | undefined {
  return selectedId.value === null ? undefined : loadedMessage(selectedId.value);
}

function loadedMessage(id: number): Message | undefined {
  for (const f of store.feeds.value.values()) {
    const m = f.messages.find((x) => x.id === id);
    if (m) return m;
  }
  return undefined;
}

/** The field of the open view's compose box whose label, name or placeholder matches (once it has rendered). */
function field<T extends HTMLElement>(name: RegExp, timeout = 2000): Promise<T | null> {
  const find = () =>
    [...document.querySelectorAll<HTMLElement>('#main input, #main textarea, #main select')].find((el) => {
      const labels = (el as HTMLInputElement).labels;
      const text = [el.getAttribute('aria-label'), el.getAttribute('placeholder'), ...[...(labels ?? [])].map((l) => l.textContent)].join(' ');
      return name.test(text ?? '') && el.offsetParent !== null;
    }) as T | undefined;
  return new Promise((resolve) => {
    const end = Date.now() + timeout;
    const tick = () => {
      const el = find();
      if (el || Date.now() > end) resolve(el ?? null);
      else setTimeout(tick, 30);
    };
    tick();
  });
}

/** Sets a select as a person would (so the compose box hears it). */
function choose(el: HTMLSelectElement, value: string): void {
  if (el.value === value) return;
  el.value = value;
  el.dispatchEvent(new Event('change', { bubbles: true }));
  el.dispatchEvent(new Event('input', { bubbles: true }));
}

const sameView = (a: View, b: View) => JSON.stringify({ ...a, near: undefined }) === JSON.stringify({ ...b, near: undefined });

/** R / Enter: the selected message's conversation, at that message, with the message box focused. */
async function reply(): Promise<void> {
  const m = selectedMessage();
  if (m) {
    const to: View =
      m.type === 'stream' ? { kind: 'topic', streamId: m.stream_id!, topic: m.subject, near: m.id } : { kind: 'dm', userIds: dmPeers(m, store.selfId.value), near: m.id };
    if (!sameView(view.value, to)) go(to);
  } else if (!isFeed(view.value)) {
    announce('Select a message first (J and K), then press R to reply.');
    return;
  }
  (await field<HTMLTextAreaElement>(/^\s*message\b/i))?.focus();
}

/** Shift+R: a direct message to the selected message's sender (to oneself for one's own). */
async function replyToSender(m: Message): Promise<void> {
  go({ kind: 'dm', userIds: m.sender_id === store.selfId.value ? [] : [m.sender_id] });
  (await field<HTMLTextAreaElement>(/^\s*message\b/i))?.focus();
}

/** The views whose compose box can be pointed anywhere (channel or people). */
const FREE: ReadonlySet<string> = new Set(['feed', 'mentions', 'starred', 'reactions']);

/** C: a new topic in the channel of the selected message or of the open view, the Topic field focused. */
async function newTopic(): Promise<void> {
  const v = view.value;
  const m = selectedMessage();
  const streamId = m?.type === 'stream' ? m.stream_id! : v.kind === 'channel' || v.kind === 'topic' ? v.streamId : null;
  if (streamId !== null) {
    if (!(v.kind === 'channel' && v.streamId === streamId && v.near === undefined)) go({ kind: 'channel', streamId });
  } else {
    if (!FREE.has(v.kind)) go({ kind: 'feed' });
    const to = await field<HTMLSelectElement>(/send to/i, 500);
    if (to) choose(to, 'channel');
  }
  const topic = await field<HTMLInputElement>(/\btopic\b/i);
  topic?.focus();
  topic?.select();
}

/** Y: every topic of the open channel, listed in the sidebar with its filter box focused. */
function channelTopics(): void {
  const v = view.value;
  const streamId = v.kind === 'channel' || v.kind === 'topic' ? v.streamId : null;
  if (!showChannelTopics(streamId)) return announce('Open a channel you are subscribed to, to list its topics.');
  document.querySelector<HTMLInputElement>('.sidebar .topic-filter input')?.focus();
}

/** X: a new direct message, the recipients field focused; a conversation's view stays (its compose box writes elsewhere). */
async function newDirect(): Promise<void> {
  const v = view.value;
  if (isFeed(v) && !FREE.has(v.kind)) composeElsewhere.value++;
  else if (!FREE.has(v.kind)) go({ kind: 'feed' });
  const to = await field<HTMLSelectElement>(/send to/i);
  if (to) choose(to, 'dm');
  (await field<HTMLInputElement>(/people|recipient/i))?.focus();
}

/** Listens for the shortcuts on the whole page; returns the way to stop. */
export function installShortcuts(): () => void {
  document.addEventListener('keydown', onKeyDown);
  return () => document.removeEventListener('keydown', onKeyDown);
}
