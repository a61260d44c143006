/**
 * Telling people about new messages: the unread count in the tab title, a short sound for
 * direct messages and mentions (with an off switch kept in this browser), and a desktop
 * notification where the browser allows them (secure contexts: localhost, HTTPS) while
 * the page is not in view.
 */
import { effect, signal } from '@preact/signals';
import { store, unreadCounts, userName, channelName, type Message } from './state.js';

const SOUND_KEY = 'hearth.sound';
export const soundOn = signal(localStorage.getItem(SOUND_KEY) !== 'off');

export function setSound(on: boolean): void {
  soundOn.value = on;
  localStorage.setItem(SOUND_KEY, on ? 'on' : 'off');
}

/** Keeps the tab title in step with the unread count. */
export function trackTitle(): () => void {
  return effect(() => {
    const n = unreadCounts.value.total;
    const name = store.realmName.value || 'Hearth';
    document.title = n > 0 ? `(${n}) ${name} - Hearth` : `${name} - Hearth`;
  });
}

function beep(): void {
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.08, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.25);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.25);
    osc.onended = () => void ctx.close();
  } catch {
    /* no audio here */
  }
}

export const notificationsPossible = () => 'Notification' in window && window.isSecureContext;

export async function askForNotifications(): Promise<NotificationPermission | 'unsupported'> {
  if (!notificationsPossible()) return 'unsupported';
  return Notification.requestPermission();
}

/** A new message arrived: sound and desktop notification for direct messages and mentions by others. */
export function notifyNewMessage(m: Message): void {
  if (m.sender_id === store.selfId.value || m.flags.includes('read')) return;
  const personal = m.type === 'private' || m.flags.some((f) => f === 'mentioned' || f.endsWith('wildcard_mentioned'));
  if (!personal) return;
  if (soundOn.value) beep();
  if (!notificationsPossible() || Notification.permission !== 'granted' || document.visibilityState === 'visible') return;
  const where = m.type === 'stream' ? `#${channelName(m.stream_id!)} > ${m.subject}` : 'Direct message';
  const text = new DOMParser().parseFromString(m.content, 'text/html').body.textContent ?? '';
  const n = new Notification(`${userName(m.sender_id)} (${where})`, { body: text.slice(0, 200), tag: String(m.id) });
  n.onclick = () => {
    window.focus();
    n.close();
  };
}
