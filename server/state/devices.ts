import type { StateSection } from '../events/state.js';
import type { DevicePushFields } from '../events/types.js';
import type { DeviceRecord } from '../store/records.js';

/**
 * A device as Zulip's `devices` register section describes it. Hearth never registers
 * with a push bouncer, so every push field stays null.
 */
export function formatDevice(_device: DeviceRecord): DevicePushFields {
  return {
    push_key_id: null,
    push_token_id: null,
    pending_push_token_id: null,
    push_token_last_updated_timestamp: null,
    push_registration_error_code: null,
  };
}

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
