/** A dictionary as the API shows it (a formatted user, channel, message, ...), built by the area's formatter. */
export type ApiDict = Record<string, unknown>;
