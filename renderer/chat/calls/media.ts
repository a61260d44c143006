/**
 * The camera, microphone and screen for a call: what the browser offers (enumerateDevices), the
 * streams (getUserMedia, getDisplayMedia) and clear words for what goes wrong: a refused camera,
 * none at all, or a page that is not a secure context (plain HTTP from another computer, where
 * browsers hide `navigator.mediaDevices`).
 */
import { serverSettings } from '../store/api.js';

export interface Devices {
  mics: MediaDeviceInfo[];
  cameras: MediaDeviceInfo[];
}

/** Whether this page may use a camera and microphone at all. */
export const mediaPossible = () => typeof navigator !== 'undefined' && Boolean(navigator.mediaDevices?.getUserMedia) && window.isSecureContext;

/** The microphones and cameras the browser lists (labels only once a permission was given). */
export async function listDevices(): Promise<Devices> {
  const all = await navigator.mediaDevices.enumerateDevices();
  return { mics: all.filter((d) => d.kind === 'audioinput'), cameras: all.filter((d) => d.kind === 'videoinput') };
}

/** A camera track at a size that suits a mesh of up to six (640×360). */
export const cameraConstraints = (deviceId?: string): MediaTrackConstraints => ({
  ...(deviceId ? { deviceId: { exact: deviceId } } : {}),
  width: { ideal: 640 },
  height: { ideal: 360 },
  frameRate: { ideal: 24, max: 30 },
});

export const micConstraints = (deviceId?: string): MediaTrackConstraints => ({
  ...(deviceId ? { deviceId: { exact: deviceId } } : {}),
  echoCancellation: true,
  noiseSuppression: true,
});

/**
 * The microphone and (when `video`) the camera. A missing or refused camera falls back to the
 * microphone alone, with a note why (`cameraProblem`); a missing microphone gives a stream without
 * audio. Throws only when neither can be had.
 */
export async function openMedia(o: { video: boolean; micId?: string; cameraId?: string }): Promise<{ stream: MediaStream; cameraProblem: string | null; micProblem: string | null }> {
  const md = navigator.mediaDevices;
  try {
    const stream = await md.getUserMedia({ audio: micConstraints(o.micId), video: o.video ? cameraConstraints(o.cameraId) : false });
    return { stream, cameraProblem: null, micProblem: null };
  } catch (err) {
    if (!o.video) {
      return { stream: new MediaStream(), cameraProblem: null, micProblem: mediaErrorText(err, 'microphone') };
    }
    // Try each alone: a person without a camera (or who refused it) joins with sound only.
    const audio = await md.getUserMedia({ audio: micConstraints(o.micId) }).catch((e: unknown) => e);
    const video = await md.getUserMedia({ video: cameraConstraints(o.cameraId) }).catch((e: unknown) => e);
    const stream = new MediaStream([
      ...(audio instanceof MediaStream ? audio.getTracks() : []),
      ...(video instanceof MediaStream ? video.getTracks() : []),
    ]);
    return {
      stream,
      cameraProblem: video instanceof MediaStream ? null : mediaErrorText(video, 'camera'),
      micProblem: audio instanceof MediaStream ? null : mediaErrorText(audio, 'microphone'),
    };
  }
}

/** Clear words for a getUserMedia failure. */
export function mediaErrorText(err: unknown, what: 'camera' | 'microphone' | 'screen'): string {
  const name = err instanceof DOMException ? err.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') {
    if (what === 'screen') return 'Screen sharing was not allowed.';
    return `The browser was not allowed to use the ${what}. Allow it in the address bar's site settings, then try again.`;
  }
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return `No ${what} was found: you join without it.`;
  if (name === 'NotReadableError' || name === 'AbortError') return `The ${what} is in use by another program or could not be started.`;
  return `The ${what} could not be used${err instanceof Error && err.message ? ` (${err.message})` : ''}.`;
}

/**
 * Why calls cannot work on this page, with what to do: browsers give camera and microphone only to
 * secure contexts (HTTPS, or the server computer itself at localhost).
 */
export async function insecureAdvice(): Promise<{ text: string; httpsUrl: string | null }> {
  const settings = await serverSettings();
  const port = typeof settings.hearth_https_port === 'number' ? settings.hearth_https_port : null;
  const httpsUrl = port ? `https://${location.hostname}:${port}${location.pathname}${location.hash}` : null;
  const text = window.isSecureContext
    ? 'This browser offers no camera or microphone to web pages.'
    : 'Browsers allow the camera and microphone only on secure pages (HTTPS). This page was opened over plain HTTP from another computer.';
  return { text, httpsUrl };
}

/** Stops every track of a stream (the camera light goes off). */
export const stopStream = (s: MediaStream | null | undefined) => s?.getTracks().forEach((t) => t.stop());
