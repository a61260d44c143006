import type { StateSection } from '../events/state.js';
import { formatDevice } from '../lib/people/devices.js';

/** `devices`: the requester's registered devices, keyed by device ID. */
const devicesSection: StateSection = {
  wants: ['device'],
  fetch({ app, user }) {
    const devices: Record<string, unknown> = {};
    if (user) {
      for (const d of app.store.devices.data.devices) if (d.user_id === user.id) devices[String(d.id)] = formatDevice(d);
    }
    return { devices };
  },
};

/**
 * `push_devices` (Zulip's end-to-end-encrypted push registrations, feature level 406): always
 * empty, since Hearth offers no push registration (`POST /mobile_push/register` is not served).
 */
const pushDevicesSection: StateSection = {
  wants: ['push_device'],
  fetch: () => ({ push_devices: {} }),
};

export const sections = [devicesSection, pushDevicesSection];
