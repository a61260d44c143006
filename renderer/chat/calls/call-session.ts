/**
 * One call this page is in: the mesh of peer links (peer-link.ts, one per other participant), the
 * local camera, microphone and screen, and the signalling through Hearth (call-api.ts: join with the
 * page's event queue, signals, state, a heartbeat every 3 s, leave). The newcomer offers to everyone
 * already in the room. When the event queue is registered anew (the server restarted), `rejoin`
 * joins again with the same client_id and the new queue: the peer links stay, so media keeps flowing.
 * Its signals are the call view's state; it is made and ended by call-store.ts.
 */
import { batch, signal } from '@preact/signals';
import { ApiError } from '../store/api.js';
import { joinRoom, leaveRoom, sendHeartbeat, sendSignal, sendState, type CallEvent, type CallParticipant, type CallRoom, type SignalKind } from './call-api.js';
import { cameraConstraints, mediaErrorText, stopStream } from './media.js';
import { PeerLink } from './peer-link.js';

/** A participant as the call view shows them. */
export interface Peer extends CallParticipant {
  stream: MediaStream | null;
  connection: RTCPeerConnectionState;
}

/** What kept the camera or microphone out when joining, said in the call view as in the lobby. */
export interface MediaNotes {
  /** "No camera was found: you join without it." … */
  problems: string[];
  /** The page may use no camera or microphone at all (not a secure context, or no media in the browser). */
  noMedia: boolean;
}

export interface Mine {
  audio: boolean;
  video: boolean;
  screen: boolean;
}

const HEARTBEAT_MS = 3_000;

export class CallSession {
  readonly phase = signal<'joining' | 'in' | 'left' | 'refused'>('joining');
  /** Why joining failed, or what went wrong since (a refused screen, a lost camera). */
  readonly problem = signal<string | null>(null);
  readonly room = signal<CallRoom | null>(null);
  readonly peers = signal<ReadonlyMap<string, Peer>>(new Map());
  readonly mine = signal<Mine>({ audio: true, video: true, screen: false });
  /** What this page shows of itself: the camera, or the screen while shared. */
  readonly preview = signal<MediaStream | null>(null);
  /** The last join or leave, read out (aria-live). */
  readonly announcement = signal('');
  /** A direct call's caller: "Declined" or "No answer". */
  readonly outcome = signal<string | null>(null);
  readonly joinedAt = signal(0);
  /** The camera's and microphone's problems when joining (the person may dismiss them). */
  readonly mediaNotes = signal<MediaNotes>({ problems: [], noMedia: false });

  private readonly links = new Map<string, PeerLink>();
  private iceServers: RTCIceServer[] = [];
  private mic: MediaStreamTrack | null;
  private camera: MediaStreamTrack | null;
  private screenTrack: MediaStreamTrack | null = null;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private queueId = '';

  constructor(
    readonly roomId: string,
    readonly clientId: string,
    local: MediaStream,
    private readonly cameraId: string | undefined,
    notes?: MediaNotes,
  ) {
    if (notes) this.mediaNotes.value = notes;
    this.mic = local.getAudioTracks()[0] ?? null;
    this.camera = local.getVideoTracks()[0] ?? null;
    this.mine.value = { audio: Boolean(this.mic), video: Boolean(this.camera), screen: false };
    this.preview.value = this.camera ? new MediaStream([this.camera]) : null;
  }

  private get tracks() {
    return { audio: this.mic, video: this.screenTrack ?? this.camera };
  }

  /** Joins the room with this page's event queue (again after a re-register: the links stay). */
  async join(queueId: string): Promise<void> {
    this.queueId = queueId;
    const m = this.mine.value;
    try {
      const res = await joinRoom(this.roomId, { client_id: this.clientId, queue_id: queueId, audio: m.audio, video: m.video });
      if (this.phase.value === 'left') return;
      this.iceServers = res.ice_servers;
      batch(() => {
        this.room.value = res.room;
        if (this.phase.value !== 'in') this.joinedAt.value = performance.now();
        this.phase.value = 'in';
        this.problem.value = null;
      });
      const others = res.participants.filter((p) => p.client_id !== this.clientId);
      for (const p of others) this.upsert(p);
      for (const p of others) if (!this.links.has(p.client_id)) this.connect(p.client_id, true);
      this.heartbeat ??= setInterval(() => void this.beat(), HEARTBEAT_MS);
      if (m.screen) void sendState(this.roomId, { client_id: this.clientId, ...m });
    } catch (err) {
      if (this.phase.value === 'in') return; // a failed re-join: the heartbeat tries again
      this.phase.value = 'refused';
      this.problem.value = err instanceof ApiError ? err.message : 'The call could not be joined.';
      this.stopMedia();
    }
  }

  /** The event queue was registered anew: joins again with the same client_id. */
  rejoin(queueId: string): void {
    if (this.phase.value === 'in' && queueId !== this.queueId) void this.join(queueId);
  }

  private async beat(): Promise<void> {
    try {
      await sendHeartbeat(this.roomId, this.clientId);
    } catch (err) {
      // The server forgot this page (restarted, or took it for gone): join again with the same client_id.
      if (err instanceof ApiError && err.status === 400 && this.queueId) await this.join(this.queueId);
    }
  }

  private upsert(p: CallParticipant): boolean {
    const next = new Map(this.peers.value);
    const had = next.get(p.client_id);
    next.set(p.client_id, { ...p, stream: had?.stream ?? null, connection: had?.connection ?? 'new' });
    this.peers.value = next;
    return !had;
  }

  private patch(clientId: string, change: Partial<Peer>): void {
    const had = this.peers.value.get(clientId);
    if (!had) return;
    this.peers.value = new Map(this.peers.value).set(clientId, { ...had, ...change });
  }

  private connect(to: string, offerer: boolean): PeerLink {
    this.links.get(to)?.close();
    const link = new PeerLink(this.iceServers, {
      signal: (kind: SignalKind, data: string) => {
        sendSignal(this.roomId, { client_id: this.clientId, to, kind, data }).catch(() => undefined);
      },
      remote: (stream) => this.patch(to, { stream }),
      state: (connection) => this.patch(to, { connection }),
    });
    this.links.set(to, link);
    if (offerer) void link.offer(this.tracks).catch((err: unknown) => console.warn('call: offer failed', err));
    return link;
  }

  /** A 'hearth_call' event for this room. */
  onEvent(e: CallEvent): void {
    if (e.room_id !== this.roomId || this.phase.value === 'left') return;
    if (e.op === 'join' && e.participant.client_id !== this.clientId) {
      if (this.upsert(e.participant)) this.announcement.value = `${e.participant.full_name} joined the call.`;
    } else if (e.op === 'leave') {
      const who = this.peers.value.get(e.client_id);
      this.links.get(e.client_id)?.close();
      this.links.delete(e.client_id);
      const next = new Map(this.peers.value);
      next.delete(e.client_id);
      this.peers.value = next;
      if (who) this.announcement.value = `${who.full_name} left the call.`;
    } else if (e.op === 'state') {
      this.patch(e.client_id, { audio: e.audio, video: e.video, screen: e.screen });
    } else if (e.op === 'signal') {
      void this.onSignal(e.from, e.kind, e.data).catch((err: unknown) => console.warn('call: signal failed', err));
    } else if (e.op === 'ring_end' && (e.reason === 'declined' || e.reason === 'missed') && this.peers.value.size === 0) {
      this.outcome.value = e.reason === 'declined' ? 'Declined' : 'No answer';
    }
  }

  private async onSignal(from: string, kind: SignalKind, data: string): Promise<void> {
    if (kind === 'offer') await this.connect(from, false).answer(data, this.tracks);
    else if (kind === 'answer') await this.links.get(from)?.answered(data);
    else await this.links.get(from)?.candidate(data);
  }

  private announceState(): void {
    void sendState(this.roomId, { client_id: this.clientId, ...this.mine.value }).catch(() => undefined);
  }

  private sendVideo(track: MediaStreamTrack | null): void {
    for (const l of this.links.values()) void l.send('video', track);
    this.preview.value = track ? new MediaStream([track]) : null;
  }

  setMuted(muted: boolean): void {
    if (!this.mic) return;
    this.mic.enabled = !muted;
    this.mine.value = { ...this.mine.value, audio: !muted };
    this.announceState();
  }

  async setCamera(on: boolean): Promise<void> {
    if (!on) {
      this.camera?.stop();
      this.camera = null;
      if (!this.screenTrack) this.sendVideo(null);
    } else {
      try {
        const s = await navigator.mediaDevices.getUserMedia({ video: cameraConstraints(this.cameraId) });
        this.camera = s.getVideoTracks()[0] ?? null;
      } catch (err) {
        this.problem.value = mediaErrorText(err, 'camera');
        return;
      }
      if (!this.screenTrack) this.sendVideo(this.camera);
    }
    this.mine.value = { ...this.mine.value, video: on };
    this.announceState();
  }

  async shareScreen(on: boolean): Promise<void> {
    if (on) {
      let s: MediaStream;
      try {
        s = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: false });
      } catch (err) {
        this.problem.value = typeof navigator.mediaDevices?.getDisplayMedia === 'function' ? mediaErrorText(err, 'screen') : 'This browser cannot share the screen.';
        return;
      }
      this.screenTrack = s.getVideoTracks()[0] ?? null;
      if (this.screenTrack) this.screenTrack.onended = () => void this.shareScreen(false);
      this.sendVideo(this.screenTrack);
    } else {
      this.screenTrack?.stop();
      this.screenTrack = null;
      this.sendVideo(this.camera);
    }
    this.mine.value = { ...this.mine.value, screen: Boolean(this.screenTrack) };
    this.announceState();
  }

  /** Video frames decoded from each other participant, by client_id. */
  async framesDecoded(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const [id, l] of this.links) out[id] = await l.framesDecoded();
    return out;
  }

  private stopMedia(): void {
    stopStream(new MediaStream([this.mic, this.camera, this.screenTrack].filter((t): t is MediaStreamTrack => t !== null)));
    this.preview.value = null;
  }

  /** Leaves: tells Hearth (unless `quietly`: the page is going away), closes every link, stops the camera. */
  leave(quietly = false): void {
    if (this.phase.value === 'left') return;
    const wasIn = this.phase.value === 'in';
    this.phase.value = 'left';
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    if (wasIn && !quietly) void leaveRoom(this.roomId, this.clientId).catch(() => undefined);
    for (const l of this.links.values()) l.close();
    this.links.clear();
    this.stopMedia();
    this.peers.value = new Map();
  }
}
