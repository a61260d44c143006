/**
 * One RTCPeerConnection to one other participant of a mesh call. Every link carries exactly one
 * audio and one video transceiver (sendrecv) from its first offer on, so muting, turning the camera
 * off or on and sharing the screen swap tracks (`replaceTrack`) and never renegotiate. The newer
 * participant offers; ICE candidates that come before the remote description wait for it.
 */
import type { SignalKind } from './call-api.js';

export interface LinkHooks {
  /** Sends an offer, answer or candidate to the other participant (through Hearth). */
  signal(kind: SignalKind, data: string): void;
  /** The other's media: one stream that gains tracks as they arrive. */
  remote(stream: MediaStream): void;
  state(state: RTCPeerConnectionState): void;
}

export interface LocalTracks {
  audio: MediaStreamTrack | null;
  video: MediaStreamTrack | null;
}

export class PeerLink {
  readonly pc: RTCPeerConnection;
  private readonly stream = new MediaStream();
  private readonly waiting: RTCIceCandidateInit[] = [];
  private closed = false;

  constructor(
    iceServers: RTCIceServer[],
    private readonly hooks: LinkHooks,
  ) {
    this.pc = new RTCPeerConnection({ iceServers });
    this.pc.onicecandidate = (e) => {
      if (e.candidate && !this.closed) hooks.signal('candidate', JSON.stringify(e.candidate.toJSON()));
    };
    this.pc.ontrack = (e) => {
      if (!this.stream.getTracks().includes(e.track)) this.stream.addTrack(e.track);
      hooks.remote(this.stream);
    };
    this.pc.onconnectionstatechange = () => hooks.state(this.pc.connectionState);
  }

  /** The newcomer's side: both transceivers with what it sends, then the offer. */
  async offer(tracks: LocalTracks): Promise<void> {
    this.pc.addTransceiver(tracks.audio ?? 'audio', { direction: 'sendrecv' });
    this.pc.addTransceiver(tracks.video ?? 'video', { direction: 'sendrecv' });
    await this.pc.setLocalDescription(await this.pc.createOffer());
    this.hooks.signal('offer', this.pc.localDescription!.sdp);
  }

  /** The one already in the room: takes the offer, sends back its tracks and the answer. */
  async answer(sdp: string, tracks: LocalTracks): Promise<void> {
    await this.pc.setRemoteDescription({ type: 'offer', sdp });
    for (const t of this.pc.getTransceivers()) {
      const kind = t.receiver.track.kind;
      t.direction = 'sendrecv';
      await t.sender.replaceTrack(kind === 'audio' ? tracks.audio : tracks.video);
    }
    await this.pc.setLocalDescription(await this.pc.createAnswer());
    this.hooks.signal('answer', this.pc.localDescription!.sdp);
    await this.flush();
  }

  async answered(sdp: string): Promise<void> {
    if (this.pc.signalingState !== 'have-local-offer') return;
    await this.pc.setRemoteDescription({ type: 'answer', sdp });
    await this.flush();
  }

  async candidate(data: string): Promise<void> {
    let c: RTCIceCandidateInit;
    try {
      c = JSON.parse(data) as RTCIceCandidateInit;
    } catch {
      return;
    }
    if (this.pc.remoteDescription) await this.pc.addIceCandidate(c).catch(() => undefined);
    else if (this.waiting.length < 200) this.waiting.push(c);
  }

  private async flush(): Promise<void> {
    for (const c of this.waiting.splice(0)) await this.pc.addIceCandidate(c).catch(() => undefined);
  }

  /** Swaps what this link sends of one kind (null: nothing). */
  async send(kind: 'audio' | 'video', track: MediaStreamTrack | null): Promise<void> {
    const t = this.pc.getTransceivers().find((x) => x.receiver.track.kind === kind);
    if (t && !this.closed) await t.sender.replaceTrack(track).catch(() => undefined);
  }

  /** Frames of video decoded from the other (the tests and the benchmark read it). */
  async framesDecoded(): Promise<number> {
    let n = 0;
    (await this.pc.getStats()).forEach((r: { type: string; kind?: string; framesDecoded?: number }) => {
      if (r.type === 'inbound-rtp' && r.kind === 'video') n += r.framesDecoded ?? 0;
    });
    return n;
  }

  close(): void {
    this.closed = true;
    this.pc.close();
  }
}
