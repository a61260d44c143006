import type { DevicePushFields } from '../../protocol/events/people.js';
import type { DeviceRecord } from '../../store/records.js';

/**
 * A device as Zulip describes it (the `devices` register section, `device` events). Hearth
 * never registers with a push bouncer, so every push field stays null.
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
