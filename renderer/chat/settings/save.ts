/**
 * How every settings tab saves: at once, on the server (`PATCH /settings` and friends); the events
 * that follow keep this and every other open page in step. The last failed save is shown at the top
 * of the settings page, whichever tab is open.
 */
import { signal } from '@preact/signals';
import { ApiError, patch } from '../store/api.js';
import { store } from '../store/state.js';

/** The last failed save, shown at the top of the page. */
export const error = signal('');
export const ok = () => (error.value = '');
export const fail = (err: unknown) => (error.value = err instanceof ApiError ? err.message : String(err));

export const setting = <T,>(name: string, fallback: T): T => (store.userSettings.value[name] as T | undefined) ?? fallback;

/** Saves settings, showing them at once (the user_settings event confirms). */
export function save(values: Record<string, unknown>): void {
  const before = store.userSettings.value;
  store.userSettings.value = { ...before, ...values };
  patch('/settings', values).then(() => ok(), (err: unknown) => {
    store.userSettings.value = { ...store.userSettings.value, ...Object.fromEntries(Object.keys(values).map((k) => [k, before[k]])) };
    fail(err);
  });
}
