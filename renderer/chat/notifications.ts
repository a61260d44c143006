/**
 * Telling people about new messages: the unread count in the tab title, a sound and a
 * desktop notification (where the browser allows them: secure contexts such as localhost
 * or HTTPS; only while the page is not in view), decided as Zulip's web app decides them
 * from the personal settings: `enable_desktop_notifications` / `enable_sounds` for direct
 * messages, mentions and alert words (wildcard mentions only with `wildcard_mentions_notify`,
 * per channel overridable), each channel's `desktop_notifications` / `audible_notifications`
 * (null: the `enable_stream_*` default; a muted channel or topic: off), followed topics, the
 * chosen `notification_sound` ("none" is silent) and `pm_content_in_desktop_notifications`.
 * Clicking a notification opens its conversation at the message; a notification closes once its
 * message is read. The tab's icon carries the unread count, with a dot for unread mentions and
 * direct messages, as Zulip's favicon does.
 */
import { effect } from '@preact/signals';
import { katexAsTex, renameStyles } from './messages/katex-style.js';
import { dmPeers } from './store/narrow.js';
import { isTopicFollowed } from './store/people-state.js';
import { go } from './store/router.js';
import { channelName, isTopicMuted, store, unreadCounts, userName, type Message } from './store/state.js';
import { once } from './store/once.js';

const ICON = '/static/hearth-icon.png';
/** The icon is drawn this many pixels square (sharp at twice the usual 32). */
export const FAVICON_PX = 64;

/** The favicon's text for an unread count: the number, or 99+. */
export const faviconLabel = (n: number) => (n > 99 ? '99+' : String(n));

/** Draws Hearth's icon with the unread count below and, for mentions and direct messages, a dot at the top right. */
function drawFavicon(icon: HTMLImageElement, n: number, dot: boolean): string {
  const c = document.createElement('canvas');
  c.width = c.height = FAVICON_PX;
  const g = c.getContext('2d');
  if (!g) return ICON;
  const S = FAVICON_PX;
  g.drawImage(icon, 0, 0, S, S);
  if (n > 0) {
    const label = faviconLabel(n);
    g.font = `bold ${label.length > 2 ? 26 : 32}px system-ui, sans-serif`;
    const w = Math.min(S, Math.max(36, g.measureText(label).width + 14));
    const h = 36;
    // Dark on the icon's orange, with a light rim: readable on light and dark tab bars.
    g.beginPath();
    g.roundRect(S - w, S - h, w, h, 10);
    g.fillStyle = '#ffffff';
    g.fill();
    g.beginPath();
    g.roundRect(S - w + 3, S - h + 3, w - 3, h - 3, 8);
    g.fillStyle = '#1f1d1a';
    g.fill();
    g.fillStyle = '#ffffff';
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    g.fillText(label, S - (w - 3) / 2, S - (h - 3) / 2 + 2);
  }
  if (dot) {
    g.beginPath();
    g.arc(S - 13, 13, 12, 0, 2 * Math.PI);
    g.fillStyle = '#ffffff';
    g.fill();
    g.beginPath();
    g.arc(S - 13, 13, 9, 0, 2 * Math.PI);
    g.fillStyle = '#d92020';
    g.fill();
  }
  return c.toDataURL('image/png');
}

/** Keeps the tab in step with the unread count: its title and its icon. */
export function trackTitle(): () => void {
  const title = effect(() => {
    const n = unreadCounts.value.total;
    const name = store.realmName.value || 'Hearth';
    document.title = n > 0 ? `(${n}) ${name} - Hearth` : `${name} - Hearth`;
  });
  const link = document.querySelector<HTMLLinkElement>('link[rel~="icon"]');
  const icon = new Image();
  let stopIcon = () => {};
  let stopped = false;
  icon.src = ICON;
  icon.decode().then(
    () => {
      if (stopped || !link) return;
      let drawn = '';
      stopIcon = effect(() => {
        const counts = unreadCounts.value;
        // Every conversation in `dms` has an unread message.
        const dot = counts.mentions > 0 || counts.dms.size > 0;
        const key = `${counts.total}:${dot}`;
        if (key === drawn) return;
        drawn = key;
        link.href = counts.total > 0 || dot ? drawFavicon(icon, counts.total, dot) : ICON;
      });
    },
    () => {
      /* no icon to draw on: the plain one stays */
    },
  );
  return () => {
    stopped = true;
    title();
    stopIcon();
    if (link) link.href = ICON;
  };
}

/** Each sound as short tones (frequency Hz, start s, length s): no audio files to fetch. */
const SOUNDS: Record<string, [number, number, number][]> = {
  zulip: [[880, 0, 0.25]],
  ding: [[1320, 0, 0.35]],
  'chime-up': [[660, 0, 0.15], [990, 0.12, 0.25]],
  'chime-down': [[990, 0, 0.15], [660, 0.12, 0.25]],
  clarinet: [[440, 0, 0.4]],
  drumroll: [[150, 0, 0.06], [150, 0.08, 0.06], [150, 0.16, 0.06], [180, 0.24, 0.15]],
};

export function playSound(name: string): void {
  const tones = SOUNDS[name] ?? SOUNDS.zulip!;
  if (name === 'none') return;
  try {
    const ctx = new AudioContext();
    let end = 0;
    for (const [freq, at, len] of tones) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = name === 'clarinet' ? 'triangle' : 'sine';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.08, ctx.currentTime + at);
      gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + at + len);
      osc.connect(gain).connect(ctx.destination);
      osc.start(ctx.currentTime + at);
      osc.stop(ctx.currentTime + at + len);
      end = Math.max(end, at + len);
    }
    setTimeout(() => void ctx.close(), end * 1000 + 100);
  } catch {
    /* no audio here */
  }
}

export const notificationsPossible = () => 'Notification' in window && window.isSecureContext;

export async function askForNotifications(): Promise<NotificationPermission | 'unsupported'> {
  if (!notificationsPossible()) return 'unsupported';
  return Notification.requestPermission();
}

const setting = (name: string, fallback: boolean) => (store.userSettings.value[name] as boolean | undefined) ?? fallback;

/** A channel's own choice (desktop_notifications, ...), else off when muted, else the default. */
function channelWants(streamId: number, property: 'desktop_notifications' | 'audible_notifications', global: string): boolean {
  const sub = store.subscriptions.value.find((s) => s.stream_id === streamId);
  if (!sub) return false;
  const own = sub[property];
  if (typeof own === 'boolean') return own;
  if (sub.is_muted === true) return false;
  return setting(global, false);
}

/** Whether a message asks for a desktop notification ('desktop') or a sound ('audible'), as Zulip decides. */
export function wants(m: Message, kind: 'desktop' | 'audible'): boolean {
  const desktop = kind === 'desktop';
  if (m.type === 'stream' && m.stream_id !== undefined) {
    const topicMuted = isTopicMuted(m.stream_id, m.subject);
    const [prop, global] = desktop
      ? (['desktop_notifications', 'enable_stream_desktop_notifications'] as const)
      : (['audible_notifications', 'enable_stream_audible_notifications'] as const);
    if (!topicMuted && channelWants(m.stream_id, prop, global)) return true;
    if (isTopicFollowed(m.stream_id, m.subject) && setting(desktop ? 'enable_followed_topic_desktop_notifications' : 'enable_followed_topic_audible_notifications', true)) {
      return true;
    }
  }
  if (!setting(desktop ? 'enable_desktop_notifications' : 'enable_sounds', true)) return false;
  if (m.type === 'private' || m.flags.includes('mentioned') || m.flags.includes('has_alert_word')) return true;
  if (m.flags.some((f) => f.endsWith('wildcard_mentioned')) && m.stream_id !== undefined) {
    const own = store.subscriptions.value.find((s) => s.stream_id === m.stream_id)?.wildcard_mentions_notify;
    return typeof own === 'boolean' ? own : setting('wildcard_mentions_notify', true);
  }
  return false;
}

/** Notifications shown for messages, by message ID: closed once the message is read (here or elsewhere). */
const shown = new Map<number, Notification>();
const closeWhenRead = once((): void => {
  effect(() => {
    const unread = store.unread.value;
    for (const [id, n] of shown) {
      if (unread.has(id)) continue;
      n.close();
      shown.delete(id);
    }
  });
});

function show(title: string, body: string, tag: string, onOpen?: () => void): Notification | undefined {
  if (!notificationsPossible() || Notification.permission !== 'granted') return undefined;
  const n = new Notification(title, { body, tag, icon: ICON });
  n.onclick = () => {
    window.focus();
    onOpen?.();
    n.close();
  };
  return n;
}

/** Opens a message's conversation at the message (what a click on its notification does). */
export function openConversationOf(m: Message): void {
  if (m.type === 'stream' && m.stream_id !== undefined) go({ kind: 'topic', streamId: m.stream_id, topic: m.subject, near: m.id });
  else go({ kind: 'dm', userIds: dmPeers(m, store.selfId.value), near: m.id });
}

/** "Send a test notification" (Settings › Notifications). */
export function testNotification(): void {
  const sound = String(store.userSettings.value.notification_sound ?? 'zulip');
  if (setting('enable_sounds', true)) playSound(sound);
  show('Test notification', 'This is what a notification from Hearth looks like.', 'hearth-test');
}

/** A message's text for a notification: math as its TeX between `$$`, as in Zulip. */
function notificationText(html: string): string {
  const body = new DOMParser().parseFromString(renameStyles(html), 'text/html').body;
  katexAsTex(body);
  return body.textContent ?? '';
}

/** A new message arrived: a sound and a desktop notification, where the settings ask for them. */
export function notifyNewMessage(m: Message): void {
  if (m.sender_id === store.selfId.value || m.flags.includes('read')) return;
  if (wants(m, 'audible')) playSound(String(store.userSettings.value.notification_sound ?? 'zulip'));
  if (document.visibilityState === 'visible' && document.hasFocus()) return;
  if (!wants(m, 'desktop')) return;
  const where = m.type === 'stream' ? `#${channelName(m.stream_id!)} > ${m.subject}` : 'Direct message';
  const text =
    m.type === 'private' && !setting('pm_content_in_desktop_notifications', true)
      ? `New direct message from ${userName(m.sender_id)}`
      : notificationText(m.content);
  const n = show(`${userName(m.sender_id)} (${where})`, text.slice(0, 200), String(m.id), () => openConversationOf(m));
  if (!n) return;
  shown.set(m.id, n);
  n.addEventListener?.('close', () => shown.get(m.id) === n && shown.delete(m.id));
  closeWhenRead();
}

/** An incoming call (calls/IncomingCall.tsx): a desktop notification where allowed; a click brings the page forward. Closed by the caller. */
export function notifyIncomingCall(caller: string, video: boolean): Notification | undefined {
  if (!setting('enable_desktop_notifications', true)) return undefined;
  return show(`${caller} is calling`, video ? 'Incoming video call' : 'Incoming voice call', 'hearth-call');
}
