/** A dictionary as the server builds it (a formatted user, channel, message, ...), before it is typed as a wire shape. */
export type ApiDict = Record<string, unknown>;
