/**
 * Queues without the `user_settings_object` capability get a `user_settings`
 * change in Zulip's legacy form: `update_display_settings` or
 * `update_global_notifications`, naming the user.
 */
import type { App } from '../context.js';
import { isDisplaySetting, isNotificationSetting } from './user-settings.js';

export function installUserSettingsFilter(app: App): void {
  app.events.addFilter('user_settings', (queue, event) => {
    if (queue.capability('user_settings_object')) return event;
    const e = event as unknown as { property: string; value: unknown; language_name?: string };
    const user = queue.userId === null ? undefined : app.store.users.get(queue.userId);
    if (!user) return null;
    if (isDisplaySetting(e.property) || e.property === 'timezone') {
      return {
        type: 'update_display_settings',
        user: user.email,
        setting_name: e.property,
        setting: e.value,
        ...(e.language_name !== undefined ? { language_name: e.language_name } : {}),
      } as never;
    }
    // Settings newer than the legacy forms (email_address_visibility) have no legacy event: they go as they are.
    if (!isNotificationSetting(e.property)) return event;
    return { type: 'update_global_notifications', user: user.email, notification_name: e.property, setting: e.value } as never;
  }, ['update_display_settings', 'update_global_notifications']);
}
