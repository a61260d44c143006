/** This browser's permission for desktop notifications (Settings, Notifications, and the Account page). */
import { useState } from 'preact/hooks';
import { askForNotifications, notificationsPossible, testNotification } from '../notifications.js';

export function NotificationPermission() {
  const [perm, setPerm] = useState<string>(notificationsPossible() ? Notification.permission : 'unsupported');
  return (
    <div class="permission">
      {perm === 'unsupported' ? (
        <p class="muted">Desktop notifications need a secure connection (HTTPS, or this computer's own address); sounds and the unread count in the tab title still work.</p>
      ) : perm === 'granted' ? (
        <p>Desktop notifications are allowed in this browser.</p>
      ) : perm === 'denied' ? (
        <p class="muted">This browser blocks notifications from Hearth: allow them in the site settings of the address bar.</p>
      ) : (
        <button type="button" onClick={() => void askForNotifications().then((p) => setPerm(p))}>
          Turn on desktop notifications
        </button>
      )}
      <button type="button" class="small" onClick={testNotification}>
        Send a test notification
      </button>
    </div>
  );
}
