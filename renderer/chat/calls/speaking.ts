/**
 * The speaking indicator: a stream's sound level through an AudioContext analyser, read a few times
 * a second. One AudioContext for the page, made on first use (after the Join click, so it may play).
 */
import { useEffect, useState } from 'preact/hooks';
import { once } from '../store/once.js';

const audioContext = once(() => new AudioContext());

/** Above this RMS level (0..1) for a moment, the person counts as speaking. */
const SPEAKING_LEVEL = 0.02;
const READ_EVERY_MS = 150;

/** Whether the stream's audio is loud enough to count as speech (false while `muted`). */
export function useSpeaking(stream: MediaStream | null, muted: boolean): boolean {
  const [speaking, setSpeaking] = useState(false);
  const track = stream?.getAudioTracks()[0];
  useEffect(() => {
    if (!track || muted || typeof AudioContext === 'undefined') {
      setSpeaking(false);
      return;
    }
    const ctx = audioContext();
    void ctx.resume().catch(() => undefined);
    const source = ctx.createMediaStreamSource(new MediaStream([track]));
    const analyser = ctx.createAnalyser();
    analyser.fftSize = 512;
    source.connect(analyser);
    const samples = new Float32Array(analyser.fftSize);
    let quietFor = 3;
    const timer = setInterval(() => {
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const v of samples) sum += v * v;
      const loud = Math.sqrt(sum / samples.length) > SPEAKING_LEVEL;
      // Stays lit through short pauses between words.
      quietFor = loud ? 0 : quietFor + 1;
      setSpeaking(quietFor < 3);
    }, READ_EVERY_MS);
    return () => {
      clearInterval(timer);
      source.disconnect();
    };
  }, [track, muted]);
  return speaking;
}
