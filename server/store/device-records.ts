/** Registered client devices and push tokens (`devices.json`). */

/** A push token a mobile app registered (kept, never used: Hearth relays no push notifications). */
export interface PushTokenRecord {
  user_id: number;
  kind: 'fcm' | 'apns';
  token: string;
  /** APNs only: the app's bundle ID. */
  ios_app_id: string | null;
  /** Unix seconds of the last registration. */
  last_updated: number;
}

/** A logged-in mobile device (`POST /register_client_device`). */
export interface DeviceRecord {
  id: number;
  user_id: number;
  /** Unix seconds. */
  date_created: number;
}

export interface DevicesDoc {
  nextId: number;
  devices: DeviceRecord[];
  push_tokens: PushTokenRecord[];
}
