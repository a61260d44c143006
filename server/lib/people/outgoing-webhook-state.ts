/**
 * The per-server state of the outgoing-webhook worker (actions/outgoing-webhook-worker.ts), held
 * by the App: the calls in flight, the timer for the next retry, and how to wake the worker when
 * a message has queued calls (set while the worker runs).
 */
export interface OutgoingWebhookState {
  /** Calls being made, by call ID: their bot (one call per bot at a time) and how to stop them. */
  inFlight: Map<number, { botId: number; controller: AbortController; done: Promise<void> }>;
  timer: NodeJS.Timeout | null;
  /** Whether the worker is running (between the server's listen and close). */
  running: boolean;
  /** Called after a commit that queued calls; a no-op while the worker is stopped. */
  wake: () => void;
}

export const newOutgoingWebhookState = (): OutgoingWebhookState => ({
  inFlight: new Map(),
  timer: null,
  running: false,
  wake: () => undefined,
});
